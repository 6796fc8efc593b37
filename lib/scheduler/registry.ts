/**
 * Every filter and weigher descriptor, keyed by its class name: the one
 * list of names the engine knows (names.ts reads it). Adding one is its
 * file, one line here and a test; a key not matching its descriptor's name
 * does not compile. Unknown names fail fast, naming the option.
 */
import { NovaError } from "./python";
import type { KnownClasses } from "./config";
import type { FilterDescriptor, FilterFactory, WeigherDescriptor, WeigherFactory } from "./plugin";
import { AggregateImagePropertiesIsolation } from "./filters/aggregate-image-properties-isolation";
import { AggregateInstanceExtraSpecsFilter } from "./filters/aggregate-instance-extra-specs";
import { AggregateIoOpsFilter } from "./filters/aggregate-io-ops";
import { AggregateMultiTenancyIsolation } from "./filters/aggregate-multi-tenancy-isolation";
import { AggregateNumInstancesFilter } from "./filters/aggregate-num-instances";
import { AggregateTypeAffinityFilter } from "./filters/aggregate-type-affinity";
import { AllHostsFilter } from "./filters/all-hosts";
import { AvailabilityZoneFilter } from "./filters/availability-zone";
import { ComputeCapabilitiesFilter } from "./filters/compute-capabilities";
import { ComputeFilter } from "./filters/compute";
import { DifferentHostFilter } from "./filters/different-host";
import { ImagePropertiesFilter } from "./filters/image-properties";
import { IoOpsFilter } from "./filters/io-ops";
import { IsolatedHostsFilter } from "./filters/isolated-hosts";
import { JsonFilter } from "./filters/json";
import { MetricsFilter } from "./filters/metrics";
import { NUMATopologyFilter } from "./filters/numa-topology";
import { NumInstancesFilter } from "./filters/num-instances";
import { PciPassthroughFilter } from "./filters/pci-passthrough";
import { SameHostFilter } from "./filters/same-host";
import { ServerGroupAffinityFilter } from "./filters/server-group-affinity";
import { ServerGroupAntiAffinityFilter } from "./filters/server-group-anti-affinity";
import { SimpleCIDRAffinityFilter } from "./filters/simple-cidr-affinity";
import { BuildFailureWeigher } from "./weighers/build-failure";
import { CPUWeigher } from "./weighers/cpu";
import { CrossCellWeigher } from "./weighers/cross-cell";
import { DiskWeigher } from "./weighers/disk";
import { HypervisorVersionWeigher } from "./weighers/hypervisor-version";
import { ImagePropertiesWeigher } from "./weighers/image-properties";
import { IoOpsWeigher } from "./weighers/io-ops";
import { MetricsWeigher } from "./weighers/metrics";
import { NumInstancesWeigher } from "./weighers/num-instances";
import { PCIWeigher } from "./weighers/pci";
import { RAMWeigher } from "./weighers/ram";
import { ServerGroupSoftAffinityWeigher } from "./weighers/server-group-soft-affinity";
import { ServerGroupSoftAntiAffinityWeigher } from "./weighers/server-group-soft-anti-affinity";

/** A table of descriptors whose every key is its descriptor's name. */
const byName =
  <D>() =>
  <T extends { [K in keyof T]: D & { readonly name: K } }>(table: T) =>
    table;

export const FILTER_DESCRIPTORS = byName<FilterDescriptor>()({
  AllHostsFilter,
  ComputeFilter,
  AvailabilityZoneFilter,
  ComputeCapabilitiesFilter,
  ImagePropertiesFilter,
  ServerGroupAntiAffinityFilter,
  ServerGroupAffinityFilter,
  AggregateInstanceExtraSpecsFilter,
  NumInstancesFilter,
  AggregateNumInstancesFilter,
  IoOpsFilter,
  AggregateIoOpsFilter,
  DifferentHostFilter,
  SameHostFilter,
  SimpleCIDRAffinityFilter,
  IsolatedHostsFilter,
  JsonFilter,
  AggregateTypeAffinityFilter,
  AggregateMultiTenancyIsolation,
  AggregateImagePropertiesIsolation,
  MetricsFilter,
  PciPassthroughFilter,
  NUMATopologyFilter,
});

export const WEIGHER_DESCRIPTORS = byName<WeigherDescriptor>()({
  RAMWeigher,
  CPUWeigher,
  DiskWeigher,
  IoOpsWeigher,
  MetricsWeigher,
  PCIWeigher,
  ServerGroupSoftAffinityWeigher,
  ServerGroupSoftAntiAffinityWeigher,
  BuildFailureWeigher,
  CrossCellWeigher,
  HypervisorVersionWeigher,
  NumInstancesWeigher,
  ImagePropertiesWeigher,
});

export type FilterName = keyof typeof FILTER_DESCRIPTORS;
export type WeigherName = keyof typeof WEIGHER_DESCRIPTORS;

export const isFilterName = (name: string): name is FilterName => Object.hasOwn(FILTER_DESCRIPTORS, name);
export const isWeigherName = (name: string): name is WeigherName => Object.hasOwn(WEIGHER_DESCRIPTORS, name);

/** What resolveConfig checks a config's class names against. */
export const KNOWN_CLASSES: KnownClasses = { isFilterName, isWeigherName };

const factories = <D extends { factory: F }, F>(table: Record<string, D>) =>
  Object.fromEntries(Object.entries(table).map(([name, d]) => [name, d.factory]));

/** Name → factory, for the engine. */
export const FILTERS = factories(FILTER_DESCRIPTORS) as Record<FilterName, FilterFactory>;
export const WEIGHERS = factories(WEIGHER_DESCRIPTORS) as Record<WeigherName, WeigherFactory>;

function lookup<T>(table: Record<string, T>, name: string, option: string): T {
  const f = Object.hasOwn(table, name) ? table[name] : undefined;
  if (!f)
    throw new NovaError("ValueError", `${option}: unknown name "${name}" (known: ${Object.keys(table).join(", ")})`);
  return f;
}

/** A filter class Schedscope does not simulate, kept in a profile: it passes every host. */
export const notSimulatedFilter =
  (name: string): FilterFactory =>
  () => ({ name, runOncePerRequest: true, check: () => null });

/** A weigher class Schedscope does not simulate, kept in a profile: it weighs every host 0. */
export const notSimulatedWeigher =
  (name: string): WeigherFactory =>
  () => ({
    name,
    weigh: () => 0,
    sameForEveryHost: () => 0,
    multiplier: () => ({ value: 0, source: "not simulated" }),
  });

export const getFilter = (name: string) => lookup(FILTERS, name, "enabled_filters");
export const getWeigher = (name: string) => lookup(WEIGHERS, name, "weighers");
