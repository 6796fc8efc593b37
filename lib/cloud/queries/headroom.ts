/** The overview's headroom: the flavors most instances use, and how many more of each fit (lib/cloud/headroom.ts). */
import "server-only";
import type { Db } from "@/lib/db/client";
import { type FlavorHeadroom, flavorHeadroom } from "../headroom";
import { serviceIsUp } from "../service";

/** Headroom for the `top` flavors with the most instances (virtual-machine flavors only), most instances first. */
export async function headroomOverview(db: Db, top = 3): Promise<FlavorHeadroom[]> {
  const [counts, hosts] = await Promise.all([
    db.instance.groupBy({ by: ["flavorId"], where: { flavorId: { not: null } }, _count: { _all: true } }),
    db.computeHost.findMany({
      select: {
        vcpus: true,
        vcpusUsed: true,
        reservedVcpus: true,
        cpuAllocationRatio: true,
        memoryMb: true,
        memoryMbUsed: true,
        reservedMemoryMb: true,
        ramAllocationRatio: true,
        localGb: true,
        localGbUsed: true,
        reservedDiskGb: true,
        diskAllocationRatio: true,
        pcpus: true,
        pcpusUsed: true,
        serviceDisabled: true,
        serviceUp: true,
        forcedDown: true,
      },
    }),
  ]);
  const byCount = new Map(counts.map((c) => [c.flavorId!, c._count._all]));
  const flavors = await db.flavor.findMany({
    where: { id: { in: [...byCount.keys()] } },
    include: { extraSpecs: { select: { key: true, value: true } } },
  });
  const usable = hosts.map((h) => ({ ...h, usable: !h.serviceDisabled && serviceIsUp(h) }));
  return flavors
    .sort((a, b) => (byCount.get(b.id) ?? 0) - (byCount.get(a.id) ?? 0) || a.name.localeCompare(b.name))
    .flatMap((f) => {
      const r = flavorHeadroom(
        {
          name: f.name,
          vcpus: f.vcpus,
          memory_mb: f.memoryMb,
          root_gb: f.rootGb,
          ephemeral_gb: f.ephemeralGb,
          swap: f.swap,
          extra_specs: Object.fromEntries(f.extraSpecs.map((s) => [s.key, s.value])),
        },
        byCount.get(f.id) ?? 0,
        usable,
      );
      return r ? [r] : [];
    })
    .slice(0, top);
}
