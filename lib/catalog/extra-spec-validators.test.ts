/**
 * Our extra spec validation against Nova's own: every validator in nova-api's
 * registry with valid and invalid values, and 50 seeded typos of its names,
 * judged by Nova (extra-spec-oracle.py, run now) and by us.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PYTHON } from "@/lib/testing/cloud";
import { extraSpecKeyError, extraSpecValueError } from "./extra-specs";
import { NOVA_VALIDATORS, novaExtraSpecError } from "./extra-spec-validators";

interface Case {
  key: string;
  value: string;
  error: string | null;
  typo?: boolean;
}

const ORACLE = path.join(__dirname, "extra-spec-oracle.py");
const TYPOS = 50;
const cases = JSON.parse(
  execFileSync(PYTHON, [ORACLE, String(TYPOS), "25"], { encoding: "utf8", maxBuffer: 1 << 28, stdio: "pipe" }),
) as Case[];
const registryNames = new Set(
  JSON.parse(
    execFileSync(
      PYTHON,
      [
        "-W",
        "ignore",
        "-c",
        "import json; from nova.api.validation.extra_specs import validators as v; print(json.dumps(list(v.VALIDATORS)))",
      ],
      { encoding: "utf8", stdio: "pipe" },
    ),
  ) as string[],
);

describe("extra specs: our verdict is Nova's, message and all", () => {
  it("covers every validator of Nova's registry, valid and invalid values, and the typos", () => {
    expect(new Set(NOVA_VALIDATORS.map((v) => v.name))).toEqual(registryNames);
    expect(cases.filter((c) => c.typo).length).toBe(2 * TYPOS);
    expect(cases.some((c) => c.error === null)).toBe(true);
    expect(cases.some((c) => c.error !== null && !c.typo)).toBe(true);
    expect(cases.some((c) => c.error !== null && c.typo)).toBe(true);
  });

  it("agrees on each case", () => {
    const disagree = cases
      .map((c) => ({ ...c, ours: novaExtraSpecError(c.key, c.value) }))
      .filter((c) => c.ours !== c.error);
    expect(disagree.slice(0, 10)).toEqual([]);
  });

  it("the flavor form refuses what Nova refuses and accepts what it accepts", () => {
    const disagree = cases
      .map((c) => ({ ...c, ours: extraSpecKeyError(c.key) ?? extraSpecValueError(c.key, c.value) }))
      .filter((c) => (c.ours === null) !== (c.error === null) || (c.error !== null && !c.ours?.includes(c.error)));
    expect(disagree.slice(0, 10)).toEqual([]);
  });

  it("a typo of hw:cpu_policy, with Nova's words", () => {
    expect(extraSpecKeyError("hw:cpu_polcy") ?? extraSpecValueError("hw:cpu_polcy", "shared")).toBe(
      "key: " + "Validation failed; extra spec 'hw:cpu_polcy' does not appear to be a valid extra spec.",
    );
  });
});
