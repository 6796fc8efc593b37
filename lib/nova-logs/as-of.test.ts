import { describe, expect, it } from "vitest";
import { snapshotInForce } from "./as-of";

const at = (iso: string) => ({ id: iso, takenAt: new Date(iso) });
const history = [at("2026-11-01T00:00:00Z"), at("2026-11-10T00:00:00Z"), at("2026-11-20T00:00:00Z")];

describe("the snapshot a scheduling call is replayed on", () => {
  it.each([
    ["before the history starts: none (the current cloud)", "2026-10-31T23:59:59Z", null],
    ["at a snapshot's own moment: that snapshot", "2026-11-10T00:00:00Z", "2026-11-10T00:00:00Z"],
    ["between two: the older one, in force then", "2026-11-15T12:00:00Z", "2026-11-10T00:00:00Z"],
    ["after the newest: the newest", "2026-11-28T08:00:00Z", "2026-11-20T00:00:00Z"],
  ])("%s", (_what, time, expected) => {
    expect(snapshotInForce(history, new Date(time).getTime())?.id ?? null).toBe(expected);
  });
});
