/**
 * A host's NUMA topology, PCI device pools and Placement inventories (PCPU
 * and custom classes), read and parsed for the host page.
 */
import type { Db } from "@/lib/db/client";
import { describeNumaTopology, type NumaView } from "./numa-view";
import type { InventoryInput, NumaTopologyInput, PciDevicePoolInput } from "../scenario/schema";

export interface HostHardware {
  numa: NumaView | null;
  pcpus: number;
  pcpusUsed: number;
  inventories: { resourceClass: string; inventory: InventoryInput }[];
}

export async function getHostHardware(db: Db, name: string): Promise<HostHardware | null> {
  const h = await db.computeHost.findUnique({
    where: { name },
    select: { numaTopology: true, pciDevicePools: true, pcpus: true, pcpusUsed: true, inventories: true },
  });
  if (!h) return null;
  const topology = h.numaTopology ? (JSON.parse(h.numaTopology) as NumaTopologyInput) : null;
  const pools = h.pciDevicePools ? (JSON.parse(h.pciDevicePools) as PciDevicePoolInput[]) : null;
  const inventories = h.inventories ? (JSON.parse(h.inventories) as Record<string, InventoryInput>) : {};
  return {
    numa: describeNumaTopology(topology, pools),
    pcpus: h.pcpus,
    pcpusUsed: h.pcpusUsed,
    inventories: Object.entries(inventories).map(([resourceClass, inventory]) => ({ resourceClass, inventory })),
  };
}
