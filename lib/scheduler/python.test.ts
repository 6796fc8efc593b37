import { describe, expect, it } from "vitest";
import { PyFloat, pyFloat, pyFloatRepr, pyInt, pyJsonDumps, pyRepr, pySplit, pyStr } from "./python";

// Expected values are what CPython 3.11 prints for the same input.
describe("pyFloatRepr matches repr(float)", () => {
  it.each([
    [16, "16.0"],
    [1e16, "1e+16"],
    [1e-5, "1e-05"],
    [0.0001, "0.0001"],
    [123456789012345.6, "123456789012345.6"],
    [2.5, "2.5"],
    [-0, "-0.0"],
    [1e22, "1e+22"],
    [0.1 + 0.2, "0.30000000000000004"],
    [5e-324, "5e-324"],
    [1.5e300, "1.5e+300"],
  ])("%s → %s", (n, want) => expect(pyFloatRepr(n)).toBe(want));
});

describe("pyFloat accepts exactly what float() accepts", () => {
  it.each([
    ["1_000", 1000],
    [" 12 ", 12],
    ["1e3", 1000],
    ["inf", Infinity],
    ["-Infinity", -Infinity],
    [".5", 0.5],
    ["5.", 5],
  ])("%j → %s", (s, want) => expect(pyFloat(s)).toBe(want));
  it("nan", () => expect(pyFloat("nan")).toBeNaN());
  it.each(["1__0", "", "abc", "0x10"])("%j raises ValueError", (s) =>
    expect(() => pyFloat(s)).toThrow(/could not convert string to float/),
  );
});

describe("pyInt accepts exactly what int() accepts", () => {
  it.each([
    ["12", 12],
    [" +5 ", 5],
    ["1_0", 10],
  ])("%j → %s", (s, want) => expect(pyInt(s)).toBe(want));
  it.each(["5.0", ""])("%j raises ValueError", (s) => expect(() => pyInt(s)).toThrow(/invalid literal for int/));
});

describe("str() and repr() of the values filters compare against", () => {
  it.each([
    [["avx", "it's", "a\\b"], `['avx', "it's", 'a\\\\b']`],
    [{ disabled: false, disabled_reason: null, up: true }, `{'disabled': False, 'disabled_reason': None, 'up': True}`],
    [new PyFloat(4), "4.0"],
    [6002000, "6002000"],
    ["QEMU", "QEMU"],
  ])("%j", (v, want) => expect(pyStr(v as never)).toBe(want));
  it("repr quotes strings", () => expect(pyRepr("x")).toBe("'x'"));
});

describe("json.dumps layout", () => {
  it("uses Python separators and ASCII escapes", () =>
    expect(pyJsonDumps({ vendor: "Intel", features: ["avx", "aes"], n: 1.5, u: "é" })).toBe(
      '{"vendor": "Intel", "features": ["avx", "aes"], "n": 1.5, "u": "\\u00e9"}',
    ));
});

describe("str.split()", () => {
  it.each([
    ["a  b\tc\n", ["a", "b", "c"]],
    ["   ", []],
    ["<or> a <or> b", ["<or>", "a", "<or>", "b"]],
  ])("%j", (s, want) => expect(pySplit(s)).toEqual(want));
});
