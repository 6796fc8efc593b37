import { compileRequirement, type Matcher } from "../extra-specs-ops";
import type { AggregateView } from "../host-state";
import { PerAggregateView } from "../per-view";
import { defineFilter, type Reason } from "../plugin";

const SCOPE = "aggregate_instance_extra_specs";

/**
 * AggregateInstanceExtraSpecsFilter: each extra spec scoped
 * aggregate_instance_extra_specs: (and, as in Nova, each unscoped one) must
 * match a value of that key in the host's aggregates' metadata.
 */
export const AggregateInstanceExtraSpecsFilter = defineFilter({
  name: "AggregateInstanceExtraSpecsFilter",
  doc: "Matches flavor extra specs aggregate_instance_extra_specs:* against aggregate metadata.",
  reasons: {
    AGGREGATE_EXTRA_SPEC_MISSING: "without the aggregate metadata the flavor asks for",
    AGGREGATE_EXTRA_SPEC_MISMATCH: "with aggregate metadata not matching the flavor",
  },
  reads: {
    metadata: ["*"],
    extraSpecs: ["aggregate_instance_extra_specs:*", "*"],
  },
  factory: () => {
    let specs: Array<{ key: string; req: string; matches: Matcher }> = [];
    // Hosts with the same aggregates get the same answer.
    const byView = new PerAggregateView(
      (view: AggregateView): Reason<"AGGREGATE_EXTRA_SPEC_MISSING" | "AGGREGATE_EXTRA_SPEC_MISMATCH"> | null => {
        for (let s = 0; s < specs.length; s++) {
          const { key, req, matches } = specs[s];
          const vals = view.split.get(key);
          if (!vals?.size)
            return { code: "AGGREGATE_EXTRA_SPEC_MISSING", message: `missing aggregate metadata ${key}=${req}` };
          let ok = false;
          for (const v of vals) {
            if (matches(v)) {
              ok = true;
              break;
            }
          }
          if (!ok)
            return {
              code: "AGGREGATE_EXTRA_SPEC_MISMATCH",
              message: `aggregate metadata ${key}=${[...vals].join(",")} not matching ${req}`,
            };
        }
        return null;
      },
    );
    return {
      name: "AggregateInstanceExtraSpecsFilter",
      runOncePerRequest: true,
      prepare(spec) {
        byView.reset();
        specs = [];
        for (const { key, value } of spec.flavor.extraSpecs) {
          const i = key.indexOf(":");
          if (i >= 0 && key.slice(0, i) !== SCOPE) continue;
          specs.push({ key: i >= 0 ? key.slice(i + 1) : key, req: value, matches: compileRequirement(value) });
        }
      },
      check(host) {
        return byView.get(host.aggregates);
      },
    };
  },
});
