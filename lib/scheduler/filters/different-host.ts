import { defineFilter } from "../plugin";
import { hintUuids } from "../request-spec";

/** DifferentHostFilter: avoid hosts running any instance in the different_host hint. */
export const DifferentHostFilter = defineFilter({
  name: "DifferentHostFilter",
  doc: "Hint different_host: hosts not running the given instances.",
  reasons: {
    DIFFERENT_HOST: "running a different_host instance",
  },
  advice: {
    DIFFERENT_HOST:
      "Every remaining host runs an instance of the different_host hint: drop some uuids from the hint, or add hosts.",
  },
  reads: {
    hints: ["different_host"],
  },
  factory: () => {
    let uuids: string[] = [];
    return {
      name: "DifferentHostFilter",
      runOncePerRequest: true,
      prepare(spec) {
        uuids = hintUuids(spec, "different_host");
      },
      check(host) {
        for (const u of uuids)
          if (host.instances.has(u))
            return { code: "DIFFERENT_HOST", message: `running instance ${u} (different_host hint)` };
        return null;
      },
    };
  },
});
