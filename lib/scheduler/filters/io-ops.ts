import { defineFilter } from "../plugin";

/** IoOpsFilter: fewer than max_io_ops_per_host concurrent I/O-heavy operations. */
export const IoOpsFilter = defineFilter({
  name: "IoOpsFilter",
  doc: "Rejects hosts with max_io_ops_per_host concurrent I/O operations or more.",
  reasons: {
    TOO_MANY_IO_OPS: "at max_io_ops_per_host",
  },
  reads: {
    options: ["max_io_ops_per_host"],
  },
  factory: (config) => ({
    name: "IoOpsFilter",
    runOncePerRequest: false,
    check(host) {
      const max = config.maxIoOpsPerHost;
      return host.numIoOps < max
        ? null
        : { code: "TOO_MANY_IO_OPS", message: `${host.numIoOps} I/O operations in progress (max ${max})` };
    },
  }),
});
