/**
 * The runway the page draws: with no history it says so and forecasts
 * nothing; with 90 days it gives each AZ's sentence, the trend, the band and
 * the date; adding hosts like one of the AZ's hosts moves the date later.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoCloud } from "@/lib/demo/seed";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { clearMetricsCache, latestMetrics, refreshMetrics } from "./cache";
import { type AllocationPoint, DEFAULT_PROVIDERS, setMetricsProviders } from "./providers";
import { runwayView } from "./runway-view";

const DAY = 86_400_000;
let t: TestDatabase;

function growth(az: string, days: number, perDay: number): AllocationPoint[] {
  const now = Date.now();
  return Array.from({ length: days }, (_, i) => ({
    at: new Date(now - (days - 1 - i) * DAY),
    az,
    aggregate: "",
    allocated: { VCPU: 100 + i * perDay, MEMORY_MB: 200_000 + i * perDay * 2048, DISK_GB: 5_000 + i * perDay * 20 },
  }));
}

beforeAll(async () => {
  t = await createTestDatabase();
  await seedDemoCloud(t.prisma, { hosts: 30 });
  await refreshMetrics(t.prisma);
}, 600_000);

afterAll(async () => {
  setMetricsProviders(DEFAULT_PROVIDERS);
  if (t) clearMetricsCache(t.prisma);
  await t?.cleanup();
});

describe("runwayView", () => {
  it("says there is no history and forecasts nothing", async () => {
    setMetricsProviders({ snapshotSeries: async () => [] });
    const v = await runwayView(t.prisma);
    expect(v.status).toBe("no-history");
    if (v.status === "no-history") expect(v.message).toMatch(/at least 7 days/);
  });

  it("reads the cloud's own history: the seed's one snapshot is too short to forecast", async () => {
    setMetricsProviders(DEFAULT_PROVIDERS);
    const v = await runwayView(t.prisma);
    expect(v).toMatchObject({ status: "short-history", historyDays: 0 });
  });

  it("says so under 7 days of history", async () => {
    setMetricsProviders({ snapshotSeries: async () => growth("az1", 5, 2) });
    const v = await runwayView(t.prisma);
    expect(v.status).toBe("short-history");
  });

  it("draws the trend, the band and the date; more hosts like one of the zone's push the date later", async () => {
    const latest = latestMetrics(t.prisma)!;
    const host = latest.metrics.hypervisors.find((h) => h.usable && h.az !== "")!;
    setMetricsProviders({ snapshotSeries: async () => growth(host.az, 90, 4) });
    const v = await runwayView(t.prisma, { flavor: "m1.small" });
    if (v.status !== "ready") throw new Error(JSON.stringify(v));
    const row = v.rows.find((r) => r.az === host.az && r.window === 30)!;
    expect(row.sentence).toMatch(
      new RegExp(
        `^${host.az}: [\\d,]+ more m1\\.small; at the 30-day trend, full for m1\\.small in \\d+ days \\(\\d+ conservatively\\)$`,
      ),
    );
    expect(row.fullDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(row.points.some((p) => p.allocated !== null)).toBe(true);
    expect(row.points.some((p) => p.allocated === null && p.trend !== null && p.band !== null)).toBe(true);
    const more = await runwayView(t.prisma, { flavor: "m1.small", addHosts: 5, like: host.host });
    if (more.status !== "ready") throw new Error("expected a forecast");
    expect(more.whatIf?.perHost).toBeGreaterThan(0);
    const after = more.rows.find((r) => r.az === host.az && r.window === 30)!;
    expect(after.slots).toBe(row.slots + 5 * more.whatIf!.perHost);
    expect(after.fullDate! > row.fullDate!).toBe(true);
  });

  it("names the field of a bad what-if", async () => {
    await expect(runwayView(t.prisma, { addHosts: 2, like: "no-such-host" })).rejects.toThrow(/^like: no host named/);
  });
});
