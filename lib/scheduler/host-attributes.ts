/**
 * HostState attributes by their Nova names, as Python values: what
 * ComputeCapabilitiesFilter and JsonFilter reach with getattr(host_state, …).
 * Returns undefined for a name HostState does not have.
 */
import type { HostState } from './host-state';
import { stableUuid } from './nova-uuid';
import { PyFloat, PyIPAddress, type PyValue } from './python';

type Getter = (h: HostState) => PyValue;

const ATTRIBUTES: Record<string, Getter> = {
  host: (h) => h.host,
  nodename: (h) => h.nodename,
  hypervisor_hostname: (h) => h.nodename,
  uuid: (h) => h.uuid || stableUuid(h.host),
  total_usable_ram_mb: (h) => h.totalUsableRamMb,
  total_usable_disk_gb: (h) => h.totalUsableDiskGb,
  disk_mb_used: (h) => h.diskMbUsed,
  free_ram_mb: (h) => h.freeRamMb,
  free_disk_mb: (h) => h.freeDiskMb,
  vcpus_total: (h) => h.vcpusTotal,
  vcpus_used: (h) => h.vcpusUsed,
  num_instances: (h) => h.numInstances,
  num_io_ops: (h) => h.numIoOps,
  failed_builds: (h) => h.failedBuilds,
  host_ip: (h) => new PyIPAddress(h.hostIp),
  hypervisor_type: (h) => h.hypervisorType,
  hypervisor_version: (h) => h.hypervisorVersion,
  cpu_info: (h) => h.cpuInfo,
  supported_instances: (h) => h.supportedInstances.map((s) => [...s]),
  limits: () => ({}),
  ram_allocation_ratio: (h) => new PyFloat(h.ramAllocationRatio),
  cpu_allocation_ratio: (h) => new PyFloat(h.cpuAllocationRatio),
  disk_allocation_ratio: (h) => new PyFloat(h.diskAllocationRatio),
  cell_uuid: (h) => stableUuid(`cell-${h.cell}`),
  service: (h) => ({ ...h.service }),
  stats: (h) => ({ ...h.stats }),
  // Present on HostState but None here (no NUMA/PCI model, not yet updated).
  numa_topology: () => null,
  pci_stats: () => null,
  updated: () => null,
  metrics: () => null,
  aggregates: () => null,
  instances: (h) => Object.fromEntries([...h.instances].map((u) => [u, u])),
};

export function hasHostAttribute(name: string): boolean {
  return Object.prototype.hasOwnProperty.call(ATTRIBUTES, name);
}

export function hostAttribute(h: HostState, name: string): PyValue | undefined {
  const g = Object.prototype.hasOwnProperty.call(ATTRIBUTES, name) ? ATTRIBUTES[name] : undefined;
  return g ? g(h) : undefined;
}
