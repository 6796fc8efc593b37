import { describe, expect, it } from "vitest";
import { z } from "zod";
import { zodFieldErrors } from "./errors";

const Form = z
  .object({
    name: z.string().min(1, { error: "name: is required" }),
    mix: z.array(z.object({ share: z.number({ error: "share: a number is required" }) })),
  })
  .refine((f) => f.name !== "both", { error: "name and mix disagree" });

describe("zodFieldErrors", () => {
  it.each([
    ["a field", { name: "", mix: [] }, { name: ["name: is required"] }],
    [
      "a nested field by its path",
      { name: "a", mix: [{ share: 1 }, { share: "x" }] },
      { "mix.1.share": ["share: a number is required"] },
    ],
    ["the whole form as _form", { name: "both", mix: [] }, { _form: ["name and mix disagree"] }],
    [
      "every message of a field, in order",
      { name: "", mix: [{ share: "x" }, { share: null }] },
      {
        name: ["name: is required"],
        "mix.0.share": ["share: a number is required"],
        "mix.1.share": ["share: a number is required"],
      },
    ],
  ])("keys %s", (_what, input, expected) => {
    const r = Form.safeParse(input);
    expect(r.success).toBe(false);
    expect(zodFieldErrors(r.error!.issues)).toEqual(expected);
  });
});
