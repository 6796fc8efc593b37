import { describe, expect, it } from "vitest";
import { mayPerform, roleForAction } from "@/lib/core/action-registry";
import { roleProblem } from "./roles";

describe("what each role may do", () => {
  it.each([
    // action, viewer, operator, admin
    ["schedule.run", true, true, true],
    ["run.rerun", true, true, true],
    ["run.rerun-release", true, true, true],
    ["run.commit", false, true, true],
    ["profile.save", false, true, true],
    ["profile.activate", false, true, true],
    ["aggregate.metadata.save", false, false, true],
    ["flavor.update", false, false, true],
    ["host.service", false, false, true],
    ["instance.delete", false, false, true],
    ["something.new", false, false, true],
  ] as const)("%s: viewer %s, operator %s, admin %s", (action, viewer, operator, admin) => {
    expect([mayPerform("viewer", action), mayPerform("operator", action), mayPerform("admin", action)]).toEqual([
      viewer,
      operator,
      admin,
    ]);
  });

  it("an unlisted action needs admin", () => {
    expect(roleForAction("cell.create")).toBe("admin");
  });

  it.each([["superuser"], [""], ["Admin"], [undefined]])("role %j does not exist", (role) => {
    expect(roleProblem(role)).toMatch(/^role: must be one of admin, operator, viewer/);
  });
});
