import type { HostState } from "../host-state";
import { defineFilter, type HostFilter } from "../plugin";

/**
 * IoOpsFilter.host_passes, with the limit `_get_max_io_ops_per_host` gives
 * (AggregateIoOpsFilter overrides it to read aggregate metadata).
 */
export const ioOpsCheck = <const N extends string>(
  name: N,
  maxIoOpsPerHost: (host: HostState) => number,
  limitWords: string,
): HostFilter<"TOO_MANY_IO_OPS", N> => ({
  name,
  runOncePerRequest: false,
  check(host) {
    const max = maxIoOpsPerHost(host);
    return host.numIoOps < max
      ? null
      : { code: "TOO_MANY_IO_OPS", message: `${host.numIoOps} I/O operations in progress (${limitWords} ${max})` };
  },
});

/** IoOpsFilter: fewer than max_io_ops_per_host concurrent I/O-heavy operations. */
export const IoOpsFilter = defineFilter({
  name: "IoOpsFilter",
  doc: "Rejects hosts with max_io_ops_per_host concurrent I/O operations or more.",
  reasons: {
    TOO_MANY_IO_OPS: "at max_io_ops_per_host",
  },
  advice: {
    TOO_MANY_IO_OPS:
      "Every remaining host is busy with max_io_ops_per_host builds, resizes or migrations (the profile's, or its aggregate's metadata): wait for them to finish, or raise it.",
  },
  reads: {
    options: ["max_io_ops_per_host"],
  },
  factory: (config) => ioOpsCheck("IoOpsFilter", () => config.maxIoOpsPerHost, "max"),
});
