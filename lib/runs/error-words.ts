/**
 * Nova's exceptions in an operator's words: the UI names what went wrong,
 * never a Python class name (the class stays in the stored result and the
 * CLI's JSON, where scripts read it).
 */
const TITLES: Record<string, string> = {
  NoValidHost: "No valid host",
  // next() over the groups finds none: the request names a server group the cloud lacks
  StopIteration: "The request names something this cloud does not have",
  ValueError: "Nova refuses a value of the request or the profile",
  TypeError: "Nova cannot read a value of the request or the profile",
  KeyError: "The request or the profile lacks a value Nova needs",
  ComputeHostMetricNotFound: "A host lacks a metric the profile requires",
  InvalidRequest: "Nova refuses the request",
  ImageNUMATopologyForbidden: "The image asks for a NUMA layout the flavor forbids",
  ImageCPUPinningForbidden: "The image asks for CPU pinning the flavor forbids",
  ImageCPUThreadPolicyForbidden: "The image asks for a CPU thread policy the flavor forbids",
  RealtimeConfigurationInvalid: "The real-time CPU settings do not add up",
  RequestedVRamTooHigh: "The image asks for more video RAM than the flavor allows",
  PciRequestAliasNotDefined: "The flavor asks for a PCI alias the profile does not define",
  // refused by nova-api or the conductor before a move is scheduled
  CannotResizeToSameFlavor: "The new flavor is the instance's current flavor",
  CannotResizeDisk: "The new flavor has no root disk where the current one has one",
  ServiceUnavailable: "The compute service of the instance's host is down",
  ComputeServiceUnavailable: "The compute service of the instance's host is down",
  ComputeServiceInUse: "The compute service of the instance's host is up: evacuate is for a host that is down",
  CannotMigrateToSameHost: "The target host is the host the instance is on",
  ComputeHostNotFound: "No compute host of the instance's cell has that name",
  HTTPBadRequest: "Nova's API refuses the request",
};

/** The operator's title for a run that ended in Nova's `error`. */
export function errorTitle(error: string): string {
  if (TITLES[error]) return TITLES[error];
  // a CamelCase class: its words, lower case after the first ("FlavorDiskTooSmall" → "Flavor disk too small")
  if (/^[A-Z][A-Za-z]+$/.test(error)) {
    const words = error.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
    return `Nova refuses the request: ${words}`;
  }
  return "Nova refuses the request";
}
