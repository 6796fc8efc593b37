import { describe, expect, it, vi } from "vitest";
import { bigCloud } from "../../bench/big-cloud";
import { schedule } from "./engine";
import { toResult } from "./result";
import { warmUpEngine } from "./warm-up";

describe("warmUpEngine", () => {
  it("runs every filter and weigher without an error and changes no later answer", () => {
    const sc = bigCloud(60, 3);
    const before = { ...toResult(schedule(sc)), timing: null };
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(warmUpEngine(100, 1)).toBeGreaterThan(0);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect({ ...toResult(schedule(sc)), timing: null }).toEqual(before);
  });
});
