import { describe, expect, it, vi } from "vitest";

describe("prisma", () => {
  it("is one object in the whole process, however many bundled copies of lib/db/index import it", async () => {
    // Next.js bundles lib/db/index once per server entry: what is kept per client
    // (the snapshot cache) must find the client instrumentation.ts primed.
    const first = (await import("./")).prisma;
    vi.resetModules();
    const second = (await import("./")).prisma;
    expect(second).toBe(first);
  });
});
