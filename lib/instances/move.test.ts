/**
 * Moves of a stored instance against a real database: the trial asks the
 * engine the move Nova's API would get, Nova's own refusals come back as
 * its errors, and a commit moves the instance and its usage only when the
 * move, scheduled again, still picks the destination the trial showed.
 */
import { describe, expect, it } from "vitest";
import { MoveCommitSchema, MoveTrialSchema } from "@/lib/cloud/form-schemas";
import { importCloud } from "@/lib/cloud/scenario-io";
import { bumpCloudRevision } from "@/lib/cloud/revision";
import { databaseFor, flavorRow, hostRow } from "@/lib/testing/fixtures";
import { PROVIDERS } from "@/lib/testing/test-db";
import { insertRun } from "@/lib/runs/schedule";
import { moveOfRun, prepareMoveRun } from "@/lib/runs/move-run";
import { commitMoveTx, prepareMoveCommit } from "./move";

const SMALL = flavorRow("m1.small", 1, 2048, 20);
const LARGE = flavorRow("m1.large", 4, 8192, 80);
const HUGE = flavorRow("m1.huge", 64, 262144, 80);
const TINY = flavorRow("m1.tiny", 1, 512, 1);
const VM = "11111111-2222-4333-8444-555555555555";

/** "src" holds the instance; "b" has more free RAM than "a", so RAMWeigher (spread) picks "b". */
function cloud(srcUp = true) {
  const host = (name: string, used: number, over: Record<string, unknown> = {}) =>
    hostRow(name, {
      vcpus_used: used ? 1 : 0,
      memory_mb_used: used,
      local_gb_used: used ? 20 : 0,
      num_instances: used ? 1 : 0,
      ...over,
    });
  return {
    config: { placement: true, enabled_filters: ["ComputeFilter", "AvailabilityZoneFilter"], weighers: ["RAMWeigher"] },
    hosts: [
      host("src", 2048, { instances: [VM], service: { disabled: false, up: srcUp } }),
      host("a", 16384),
      host("b", 0),
    ],
    flavors: [SMALL, LARGE, HUGE, TINY],
    instances: [{ uuid: VM, name: "web-1", flavor: "m1.small", project_id: "p1" }],
  };
}

const trial = (input: Record<string, unknown>) => MoveTrialSchema.parse({ uuid: VM, ...input });

describe.each(PROVIDERS)("on %s", (provider) => {
  const t = databaseFor(provider);

  const reset = (srcUp = true) => importCloud(t.prisma, cloud(srcUp), { profileName: "spread" });

  async function commit(input: Record<string, unknown>) {
    const d = MoveCommitSchema.parse({ uuid: VM, ...input });
    const p = await prepareMoveCommit(t.prisma, d);
    return t.prisma.$transaction(async (tx) => {
      const out = await commitMoveTx(tx, d, p);
      await bumpCloudRevision(tx); // as mutate() does: the next trial reads the moved cloud
      return out;
    });
  }

  const usage = async (name: string) =>
    t.prisma.computeHost.findUniqueOrThrow({
      where: { name },
      select: { vcpusUsed: true, memoryMbUsed: true, localGbUsed: true, numInstances: true },
    });

  it.each([
    { move: { operation: "resize", flavor: "m1.large" }, error: null, chosen: "b", weighed: ["b", "a"] },
    { move: { operation: "migrate" }, error: null, chosen: "b", weighed: ["b", "a"] },
    { move: { operation: "live-migrate", target_host: "a" }, error: null, chosen: "a", weighed: ["a"] },
    { move: { operation: "resize", flavor: "m1.small" }, error: "CannotResizeToSameFlavor", chosen: null, weighed: [] },
    { move: { operation: "evacuate" }, error: "ComputeServiceInUse", chosen: null, weighed: [] },
    { move: { operation: "migrate", target_host: "src" }, error: "CannotMigrateToSameHost", chosen: null, weighed: [] },
    { move: { operation: "resize", flavor: "m1.huge" }, error: "NoValidHost", chosen: null, weighed: [] },
  ])(
    "trial $move.operation $move.flavor $move.target_host: $error / $chosen",
    async ({ move, error, chosen, weighed }) => {
      await reset();
      const p = await prepareMoveRun(t.prisma, trial(move));
      expect(p.request).toMatchObject({ operation: move.operation, instance: { uuid: VM, host: "src" } });
      expect(p.result.error).toBe(error);
      expect(p.result.selections[0]?.host ?? null).toBe(chosen);
      // the source is never a candidate (ignore_hosts); a target host alone is filtered
      // the source is never weighed (ignore_hosts); a named target host is the only one filtered
      expect(p.result.requests[0]?.weighed.map((w) => w.host) ?? []).toEqual(weighed);
    },
  );

  it("explains a resize with no room as NoValidHost with the hosts counted", async () => {
    await reset();
    const p = await prepareMoveRun(t.prisma, trial({ operation: "resize", flavor: "m1.huge" }));
    expect(p.result.diagnosis?.summary).toMatch(/^0\/3 hosts available/);
  });

  it("answers a resize to a smaller root disk as Nova does: scheduled, then refused by the libvirt driver", async () => {
    await reset();
    const p = await prepareMoveRun(t.prisma, trial({ operation: "resize", flavor: "m1.tiny" }));
    expect(p.result.error).toBeNull();
    expect(p.result.not_checked).toMatch(
      /libvirt driver on src refuses it .*ResizeError "Unable to resize disk down.": its root disk would shrink from 20 GB \(m1.small\) to 1 GB \(m1.tiny\)/,
    );
    const d = MoveCommitSchema.parse({
      uuid: VM,
      operation: "resize",
      flavor: "m1.tiny",
      id: await rowId(),
      destination: "b",
    });
    await expect(prepareMoveCommit(t.prisma, d)).rejects.toThrow(/Not moved: .*Unable to resize disk down/);
  });

  it("evacuates from a host that is down", async () => {
    await reset(false);
    const p = await prepareMoveRun(t.prisma, trial({ operation: "evacuate" }));
    expect(p.result.error).toBeNull();
    expect(p.result.selections[0].host).toBe("b");
  });

  it("commits a resize: the instance, its flavor and both hosts' usage move", async () => {
    await reset();
    const out = await commit({ operation: "resize", flavor: "m1.large", id: await rowId(), destination: "b" });
    expect(out).toMatchObject({ from: "src", to: "b", flavor: "m1.large" });
    const inst = await t.prisma.instance.findUniqueOrThrow({
      where: { uuid: VM },
      select: { host: { select: { name: true } }, flavor: { select: { name: true } } },
    });
    expect(inst).toEqual({ host: { name: "b" }, flavor: { name: "m1.large" } });
    expect(await usage("src")).toEqual({ vcpusUsed: 0, memoryMbUsed: 0, localGbUsed: 0, numInstances: 0 });
    expect(await usage("b")).toEqual({ vcpusUsed: 4, memoryMbUsed: 8192, localGbUsed: 80, numInstances: 1 });
    // moved: the same move now starts from b
    const again = await prepareMoveRun(t.prisma, trial({ operation: "migrate" }));
    expect(again.request.instance?.host).toBe("b");
  });

  it("schedules a stored move again for the instance as it is now", async () => {
    await reset();
    const p = await prepareMoveRun(t.prisma, trial({ operation: "migrate" }));
    const { id } = await t.prisma.$transaction((tx) => insertRun(tx, p));
    expect(await t.prisma.schedulingRun.findUniqueOrThrow({ where: { id }, select: { flavorName: true } })).toEqual({
      flavorName: "m1.small",
    });
    await commit({ operation: "resize", flavor: "m1.large", id: await rowId(), destination: "b" });
    const stored = await moveOfRun(t.prisma, id);
    expect(stored).toEqual({
      move: { uuid: VM, operation: "migrate", flavor: null, target_host: null },
      profileName: "spread",
    });
    const again = await prepareMoveRun(t.prisma, stored!.move, stored!.profileName);
    expect(again.request.instance).toMatchObject({ host: "b", flavor: { name: "m1.large" } });
    // src, emptied by the resize, now has the most free RAM
    expect(again.result.selections[0].host).toBe("src");
  });

  it.each([
    { input: { operation: "migrate", destination: "a" }, field: "destination" },
    { input: { operation: "resize", flavor: "m1.nope", destination: "b" }, field: "flavor" },
    { input: { operation: "resize", flavor: "m1.huge", destination: "b" }, field: null },
    { input: { operation: "resize", flavor: "m1.tiny", destination: "b" }, field: null },
  ])("refuses $input.operation to $input.destination ($field), writing nothing", async ({ input, field }) => {
    await reset();
    const before = await Promise.all(["src", "a", "b"].map(usage));
    await expect(commit({ ...input, id: await rowId() })).rejects.toMatchObject({ field });
    expect(await Promise.all(["src", "a", "b"].map(usage))).toEqual(before);
    const inst = await t.prisma.instance.findUniqueOrThrow({ where: { uuid: VM }, select: { host: true } });
    expect(inst.host?.name).toBe("src");
  });

  async function rowId() {
    return String((await t.prisma.instance.findUniqueOrThrow({ where: { uuid: VM }, select: { id: true } })).id);
  }
});

describe("MoveTrialSchema", () => {
  it.each([
    [{ operation: "resize" }, "flavor", "flavor: is required for a resize (the new flavor)"],
    [
      { operation: "migrate", flavor: "m1.large" },
      "flavor",
      "flavor: only a resize changes the flavor; migrate keeps the instance's",
    ],
    [
      { operation: "resize", flavor: "m1.large", target_host: "a" },
      "target_host",
      "target_host: a resize takes no host",
    ],
    [{ operation: "unshelve" }, "operation", "operation: must be one of resize, migrate, live-migrate, evacuate"],
    [{ operation: "migrate", uuid: " " }, "uuid", "uuid: is required"],
  ])("%j → %s", (input, field, message) => {
    const r = MoveTrialSchema.safeParse({ uuid: VM, ...input });
    expect(r.success).toBe(false);
    const issue = r.error!.issues.find((i) => i.path[0] === field);
    expect(issue?.message).toContain(message);
  });
});
