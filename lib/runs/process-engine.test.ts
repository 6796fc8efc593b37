import { afterEach, describe, expect, it, vi } from "vitest";
import { peekProcessSingleton, setProcessSingleton } from "@/lib/process-singleton";
import { ENGINE_SINGLETON, type ProcessEngine, processEngine } from "@/lib/core/process-engine";
import { schedule } from "../scheduler";

// Another server entry's copy of the engine, registered first (as instrumentation.ts's is).
const other: ProcessEngine = { schedule: vi.fn(), toResult: vi.fn(), warmUp: vi.fn() };

afterEach(() => {
  vi.unstubAllEnvs();
  setProcessSingleton(ENGINE_SINGLETON, undefined);
});

describe("processEngine", () => {
  it("runs, in a production server, the copy the process registered first (the one warmed at start)", () => {
    vi.stubEnv("NODE_ENV", "production");
    setProcessSingleton(ENGINE_SINGLETON, other);
    expect(processEngine()).toBe(other);
  });

  it("registers its own copy when it is the first asked, and hands the same one out after", () => {
    vi.stubEnv("NODE_ENV", "production");
    const first = processEngine();
    expect(first.schedule).toBe(schedule);
    expect(peekProcessSingleton(ENGINE_SINGLETON)).toBe(first);
    expect(processEngine()).toBe(first);
  });

  it("keeps each copy its own outside production, so that next dev runs edited code", () => {
    vi.stubEnv("NODE_ENV", "development");
    setProcessSingleton(ENGINE_SINGLETON, other);
    expect(processEngine().schedule).toBe(schedule);
  });
});
