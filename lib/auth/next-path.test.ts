import { describe, expect, it } from "vitest";
import { safeNext } from "./next-path";

describe("safeNext: where sign-in sends the browser", () => {
  it.each([
    ["/hosts?page=2", "/hosts?page=2"],
    ["/runs/7#why", "/runs/7#why"],
    ["/a/../hosts", "/hosts"],
  ])("keeps a path of this site: %j → %j", (next, to) => {
    expect(safeNext(next)).toBe(to);
  });

  it.each([
    "/\t/evil.example/x",
    "/\n/evil.example/x",
    "/\r\n/evil.example/x",
    "//evil.example/x",
    "/\\evil.example/x",
    "\\/evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "",
    undefined,
    ["/hosts"],
  ])("sends %j to / (another site, or not a path)", (next) => {
    expect(safeNext(next)).toBe("/");
  });

  it("drops a newline inside a path of this site (no header injection)", () => {
    expect(safeNext("/hosts\r\nSet-Cookie: x=1")).toBe("/hostsSet-Cookie:%20x=1");
  });
});
