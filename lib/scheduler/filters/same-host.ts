import { defineFilter } from "../plugin";
import { hintUuids } from "../request-spec";

/** SameHostFilter: only hosts running an instance in the same_host hint. */
export const SameHostFilter = defineFilter({
  name: "SameHostFilter",
  doc: "Hint same_host: hosts running the given instances.",
  reasons: {
    SAME_HOST: "running none of the same_host instances",
  },
  advice: {
    SAME_HOST:
      "No remaining host runs the instances of the same_host hint: check those instance uuids, or drop the hint.",
  },
  reads: {
    hints: ["same_host"],
  },
  factory: () => {
    let uuids: string[] = [];
    return {
      name: "SameHostFilter",
      runOncePerRequest: true,
      prepare(spec) {
        uuids = hintUuids(spec, "same_host");
      },
      check(host) {
        if (!uuids.length) return null;
        for (const u of uuids) if (host.instances.has(u)) return null;
        return { code: "SAME_HOST", message: `running none of the same_host instances (${uuids.join(", ")})` };
      },
    };
  },
});
