/**
 * lib/cloud/usage.ts on a compute node's database row: the row's usage
 * columns read as a host of the scenario format, edited, written back whole
 * (the caller holds the row's lock: lib/db/lock.ts).
 */
import type { Tx } from "@/lib/db/client";
import type { UsageHost } from "./usage";

export { pciAliases } from "./usage";

export const USAGE_SELECT = {
  id: true,
  vcpusUsed: true,
  memoryMbUsed: true,
  localGbUsed: true,
  numInstances: true,
  freeRamMb: true,
  freeDiskGb: true,
  diskAvailableLeast: true,
  pcpus: true,
  pcpusUsed: true,
  numaTopology: true,
  pciDevicePools: true,
  inventories: true,
  childProviders: true,
} as const;

const json = <T>(text: string | null): T | undefined => (text === null ? undefined : (JSON.parse(text) as T));
const text = (v: unknown): string | null => (v === undefined || v === null ? null : JSON.stringify(v));

/** Edit the usage of row `id` as a scenario host; returns the host as written. */
export async function editUsage(tx: Tx, id: number, edit: (h: UsageHost) => void): Promise<UsageHost> {
  const r = await tx.computeHost.findUniqueOrThrow({ where: { id }, select: USAGE_SELECT });
  const h: UsageHost = {
    vcpus_used: r.vcpusUsed,
    memory_mb_used: r.memoryMbUsed,
    local_gb_used: r.localGbUsed,
    num_instances: r.numInstances,
    ...(r.freeRamMb !== null ? { free_ram_mb: r.freeRamMb } : {}),
    ...(r.freeDiskGb !== null ? { free_disk_gb: r.freeDiskGb } : {}),
    disk_available_least: r.diskAvailableLeast,
    pcpus: r.pcpus,
    pcpus_used: r.pcpusUsed,
    numa_topology: json(r.numaTopology) ?? null,
    pci_device_pools: json(r.pciDevicePools) ?? null,
    inventories: json(r.inventories),
    child_providers: json(r.childProviders),
  };
  edit(h);
  await tx.computeHost.update({
    where: { id },
    data: {
      vcpusUsed: h.vcpus_used ?? 0,
      memoryMbUsed: h.memory_mb_used ?? 0,
      localGbUsed: h.local_gb_used ?? 0,
      numInstances: h.num_instances ?? 0,
      freeRamMb: h.free_ram_mb ?? null,
      freeDiskGb: h.free_disk_gb ?? null,
      diskAvailableLeast: h.disk_available_least ?? null,
      pcpusUsed: h.pcpus_used ?? 0,
      numaTopology: text(h.numa_topology),
      pciDevicePools: text(h.pci_device_pools),
      inventories: text(h.inventories),
      childProviders: text(h.child_providers),
    },
  });
  return h;
}
