import { describe, expect, it } from "vitest";
import { describeRequirement, match } from "./extra-specs-ops";

// Expected verdicts come from nova.scheduler.filters.extra_specs_ops.match (Zed).
describe("extra spec operators agree with Nova", () => {
  it.each([
    ["1024", "1024", true],
    ["1024", "= 1000", true],
    ["999", "= 1000", false],
    ["2", "== 2.0", true],
    ["2", "!= 3", true],
    ["5", ">= 5", true],
    ["5", "<= 4", false],
    ["QEMU", "s== QEMU", true],
    ["qemu", "s== QEMU", false],
    ["b", "s!= a", true],
    ["b", "s> a", true],
    ["b", "s>= b", true],
    ["a", "s< b", true],
    ["a", "s<= a", true],
    ["['avx', 'aes']", "<in> aes", true],
    ["['avx', 'aes']", "<all-in> aes mmx", false],
    ["['avx', 'aes']", "<all-in> aes avx", true],
    ["Intel", "<or> Intel <or> AMD", true],
    ["ARM", "<or> Intel <or> AMD", false],
    ["AMD", "<or> Intel AMD", false],
    ["x", "==", false],
    ["x", "<in>", false],
    ["true", " true", false],
    ["true", "true", true],
  ])("%j matches %j → %s", (value, req, want) => expect(match(value, req)).toBe(want));

  it("a numeric operator on a non-number raises ValueError, failing the request", () =>
    expect(() => match("abc", ">= 2")).toThrow(expect.objectContaining({ novaName: "ValueError" })));
  it('"<or>" with nothing after it raises IndexError', () =>
    expect(() => match("x", "<or>")).toThrow(expect.objectContaining({ novaName: "IndexError" })));
});

describe("describeRequirement explains values for the flavor editor", () => {
  it.each([
    ["s== QEMU", "s== QEMU: string equal to QEMU", undefined],
    ["true", 'equal to "true" (no operator: exact string match)', undefined],
    ["<or> Intel <or> AMD", 'one of "Intel", "AMD"', undefined],
    [">=", "", ">= needs an operand"],
    [">= lots", "", '>= compares numbers, but "lots" is not a number'],
  ])("%j", (req, meaning, error) => {
    const d = describeRequirement(req);
    expect(d.error).toBe(error);
    if (!error) expect(d.meaning).toBe(meaning);
  });
});
