/**
 * Re-running a stored run under another Nova release: same snapshot, request
 * and profile, only nova_release changes; compared with lib/runs/compare.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { importCloud } from "@/lib/cloud/scenario-io";
import { readExample } from "@/lib/testing/cloud";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { compareResults } from "./compare";
import { checkRelease, prepareReleaseRerun } from "./release-rerun";
import { insertRun, runSchedule } from "./schedule";
import { readRunColumn } from "./store";
import { buildRunView } from "./view";

describe("prepareReleaseRerun", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase();
    const doc = readExample("gpu-az.scenario.json") as { config: Record<string, unknown> };
    doc.config.weighers = "all";
    await importCloud(t.prisma, doc);
    // the same profile without AvailabilityZoneFilter (2023.2 removed it)
    const noAz = {
      ...doc.config,
      enabled_filters: (doc.config.enabled_filters as string[]).filter((f) => f !== "AvailabilityZoneFilter"),
    };
    await t.prisma.schedulerProfile.create({ data: { name: "no-az", config: JSON.stringify(noAz) } });
  });
  afterAll(async () => t?.cleanup());

  it("schedules the stored scenario with only nova_release changed, and the difference shows", async () => {
    const request = { flavor: { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40 }, num_instances: 1 };
    const a = await runSchedule(request, "no-az", { db: t.prisma });
    const p = await prepareReleaseRerun(t.prisma, a.id, "2023.2");
    const before = JSON.parse((await readRunColumn(t.prisma, a.id, "snapshot"))!);
    expect(p.scenario.hosts).toEqual(before.hosts);
    expect(p.scenario.request).toEqual(before.request);
    expect(p.config).toEqual({ ...before.config, nova_release: "2023.2" });
    expect(p.result.nova_release).toMatch(/2023\.2/);
    expect(a.result.nova_release).toMatch(/Zed/);
    // 2023.2's "all" adds HypervisorVersionWeigher and NumInstancesWeigher
    const weighersB = Object.keys(p.result.requests[0].weighed[0].weighers);
    expect(weighersB).toEqual(expect.arrayContaining(["HypervisorVersionWeigher", "NumInstancesWeigher"]));
    expect(Object.keys(a.result.requests[0].weighed[0].weighers)).not.toContain("NumInstancesWeigher");
    const b = await insertRun(t.prisma, p);
    expect(b.id).toBeGreaterThan(a.id);
    expect(compareResults(a.result, p.result).instances).toHaveLength(1);
  });

  it("a profile naming AvailabilityZoneFilter runs without it under 2023.2, and says so", async () => {
    const request = { flavor: { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40 }, num_instances: 1 };
    const a = await runSchedule(request, undefined, { db: t.prisma });
    expect(a.result.requests[0].funnel.map((f) => f.filter)).toContain("AvailabilityZoneFilter");
    const p = await prepareReleaseRerun(t.prisma, a.id, "2023.2");
    expect(p.result.requests[0].funnel.map((f) => f.filter)).not.toContain("AvailabilityZoneFilter");
    expect(p.result.release_notes).toEqual([expect.stringMatching(/^AvailabilityZoneFilter is not in Nova 28/)]);
    expect(buildRunView(p.result, p.request, p.config).releaseNotes).toEqual(p.result.release_notes);
  });

  it("refuses an unknown release and an unknown run, naming the field", async () => {
    expect(checkRelease("2022.2")).toMatch(/^release: must be a known Nova release \(zed, 2023.1/);
    await expect(prepareReleaseRerun(t.prisma, 1, "2022.2")).rejects.toMatchObject({ field: "release" });
    await expect(prepareReleaseRerun(t.prisma, 999, "2024.1")).rejects.toThrow(/run #999 does not exist/);
  });
});
