/**
 * The stable codes a rejected host is grouped by (plugin.ts `Reason`), and
 * the words a NoValidHost summary puts after a count ("3 at
 * max_instances_per_host") when the hosts' messages differ. Diagnosis and
 * advice key off these codes, never off the message text.
 */
import type { Reason } from "./plugin";

export const REASON_LABELS: Record<string, string> = {
  // ComputeFilter; Placement's compute_status_filter
  DISABLED: "compute service disabled",
  DOWN: "compute service down",
  // AvailabilityZoneFilter
  WRONG_AVAILABILITY_ZONE: "outside the requested availability zone",
  // Aggregate* filters
  TENANT_NOT_ALLOWED: "in aggregates reserved for other projects",
  FLAVOR_NOT_ALLOWED: "in aggregates reserved for other flavors",
  AGGREGATE_EXTRA_SPEC_MISSING: "without the aggregate metadata the flavor asks for",
  AGGREGATE_EXTRA_SPEC_MISMATCH: "with aggregate metadata not matching the flavor",
  AGGREGATE_IMAGE_PROPS_MISMATCH: "with aggregate metadata not matching the image",
  TOO_MANY_INSTANCES: "at max_instances_per_host",
  TOO_MANY_IO_OPS: "at max_io_ops_per_host",
  // ComputeCapabilitiesFilter, ImagePropertiesFilter
  CAPABILITY_MISSING: "without a capability the flavor asks for",
  CAPABILITY_MISMATCH: "with capabilities not matching the flavor",
  IMAGE_PROPS_MISMATCH: "not supporting the image's architecture, hypervisor or VM mode",
  // IsolatedHostsFilter
  ISOLATED_HOST: "isolated hosts (the image is not isolated)",
  ISOLATED_IMAGE: "not isolated (the image needs an isolated host)",
  // hints and server groups
  SAME_HOST: "running none of the same_host instances",
  DIFFERENT_HOST: "running a different_host instance",
  AFFINITY: "not the affinity group's host",
  ANTI_AFFINITY: "already running the anti-affinity group's members",
  ANTI_AFFINITY_THIS_REQUEST: "already holding instances of this request (anti-affinity)",
  QUERY_NOT_SATISFIED: "not satisfying the query hint",
  OUTSIDE_CIDR: "outside the build_near_host_ip network",
  METRIC_MISSING: "not reporting a weighed metric",
  // NUMATopologyFilter, PciPassthroughFilter
  NUMA_NO_TOPOLOGY: "without a NUMA topology",
  NUMA_NO_SMT: "without SMT siblings (cpu_thread_policy=require)",
  NUMA_NO_FIT: "where the NUMA topology does not fit",
  PCI_NUMA_AFFINITY: "without the PCI devices on the NUMA nodes that fit",
  PCI_NO_POOL: "without the requested PCI devices",
  // Placement (candidates.ts; VCPU_SHORT and the other <class>_SHORT carry their label)
  NOT_IN_TENANT_AGGREGATE: "not in an aggregate of the project",
  NOT_IN_AVAILABILITY_ZONE: "not in the requested availability zone",
  NOT_IN_AGGREGATE: "not in a required aggregate",
  ISOLATED_AGGREGATE: "in an aggregate that requires traits the request lacks",
  TRAIT_MISSING: "lacking a required trait",
  TRAIT_FORBIDDEN: "having a forbidden trait",
  RESOURCE_UNIT: "outside a resource's min_unit, max_unit or step_size",
  NOT_FORCED_HOST: "not the forced host",
  GROUP_POLICY: "unable to give each numbered group its own provider",
  PLACEMENT_REFUSED: "refused by Placement",
  NOT_IN_CANDIDATE_LIMIT: "not among the first max_placement_results candidates",
  NOT_A_CANDIDATE: "not a candidate",
};

/** A reason whose message never changes: one shared object, nothing allocated on the hot path. */
export function fixedReason(code: string, message: string): Reason {
  return Object.freeze({ code, message });
}
