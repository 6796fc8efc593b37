import type { FilterFactory } from "../plugin";

/** IoOpsFilter: fewer than max_io_ops_per_host concurrent I/O-heavy operations. */
export const IoOpsFilter: FilterFactory = (config) => ({
  name: "IoOpsFilter",
  runOncePerRequest: false,
  check(host) {
    const max = config.maxIoOpsPerHost;
    return host.numIoOps < max
      ? null
      : { code: "TOO_MANY_IO_OPS", message: `${host.numIoOps} I/O operations in progress (max ${max})` };
  },
});
