import type { FilterFactory } from "../plugin";
import { hintUuids } from "../request-spec";

/** SameHostFilter: only hosts running an instance in the same_host hint. */
export const SameHostFilter: FilterFactory = () => {
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
};
