/**
 * HostState attributes by their Nova names, as Python values: what
 * ComputeCapabilitiesFilter and JsonFilter reach with getattr(host_state, …).
 * Returns undefined for a name HostState does not have.
 */
import type { Aggregate, HostState } from "./host-state";
import { formatIp } from "./ip";
import { stableUuid } from "./nova-uuid";
import { PyFloat, PyIPAddress, PyObject, type PyValue } from "./python";

// NovaObject.__repr__: every field sorted by name, unset ones as <?>.
const INSTANCE_FIELDS =
  "access_ip_v4,access_ip_v6,architecture,auto_disk_config,availability_zone,cell_name,cleaned,config_drive,created_at,default_ephemeral_device,default_swap_device,deleted,deleted_at,device_metadata,disable_terminate,display_description,display_name,ec2_ids,ephemeral_gb,ephemeral_key_uuid,fault,flavor,hidden,host,hostname,id,image_ref,info_cache,instance_type_id,kernel_id,key_data,key_name,keypairs,launch_index,launched_at,launched_on,locked,locked_by,memory_mb,metadata,migration_context,new_flavor,node,numa_topology,old_flavor,os_type,pci_devices,pci_requests,power_state,progress,project_id,ramdisk_id,reservation_id,resources,root_device_name,root_gb,security_groups,services,shutdown_terminate,system_metadata,tags,task_state,terminated_at,trusted_certs,updated_at,user_data,user_id";
const INSTANCE_REPR_HEAD =
  "Instance(" +
  INSTANCE_FIELDS.split(",")
    .map((f) => `${f}=<?>,`)
    .join("") +
  "uuid=";
const INSTANCE_REPR_TAIL = ",vcpu_model=<?>,vcpus=<?>,vm_mode=<?>,vm_state=<?>)";

const aggregateObjects = new WeakMap<Aggregate, PyObject>();
/** An objects.Aggregate as the reference builds it (uuid from its name). */
function aggregateObject(a: Aggregate): PyObject {
  let o = aggregateObjects.get(a);
  if (!o) {
    const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    const md = [...a.metadata]
      .sort((x, y) => cmp(x[0], y[0]))
      .map(([k, v]) => `${k}='${v}'`)
      .join(",");
    const hosts = a.hosts.map((h) => `'${h}'`).join(",");
    const text = `Aggregate(created_at=<?>,deleted=<?>,deleted_at=<?>,hosts=[${hosts}],id=${a.id},metadata={${md}},name='${a.name}',updated_at=<?>,uuid=${stableUuid(`agg-${a.name}`)})`;
    aggregateObjects.set(a, (o = new PyObject("Aggregate", text, `aggregate:${a.name}`)));
  }
  return o;
}

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
  host_ip: (h) => new PyIPAddress(formatIp(h.parsedIp), h.parsedIp),
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
  // None here: no NUMA model.
  numa_topology: () => null,
  // A PciDeviceStats object; str() shows its memory address (see
  // lib/scheduler/conformance/README.md), so only its type name is reproduced.
  pci_stats: (h) =>
    new PyObject("PciDeviceStats", "<nova.pci.stats.PciDeviceStats object at 0x7f0000000000>", `pci_stats:${h.host}`),
  // None until the host consumed an instance, then a datetime (now).
  updated: (h) =>
    h.updated
      ? new PyObject("datetime", h.updated.toISOString().replace("T", " ").replace("Z", "+00:00"), `updated:${h.host}`)
      : null,
  metrics: (h) =>
    new PyObject(
      "MonitorMetricList",
      `MonitorMetricList(objects=[${Array(h.metricsReported).fill("MonitorMetric").join(",")}])`,
      `metrics:${h.host}`,
      h.metricsReported > 0,
    ),
  aggregates: (h) => h.aggregates.aggregates.map(aggregateObject),
  instances: (h) =>
    Object.fromEntries(
      [...h.instances].map((u) => [
        u,
        new PyObject("Instance", INSTANCE_REPR_HEAD + u + INSTANCE_REPR_TAIL, `instance:${u}`),
      ]),
    ),
};

export function hasHostAttribute(name: string): boolean {
  return Object.hasOwn(ATTRIBUTES, name);
}

export function hostAttribute(h: HostState, name: string): PyValue | undefined {
  const g = Object.hasOwn(ATTRIBUTES, name) ? ATTRIBUTES[name] : undefined;
  return g ? g(h) : undefined;
}
