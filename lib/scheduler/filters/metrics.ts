import { parseMetricsWeightSetting } from "../config";
import { defineFilter } from "../plugin";

/** MetricsFilter: the host must report every metric metrics.weight_setting names. */
export const MetricsFilter = defineFilter({
  name: "MetricsFilter",
  doc: "Rejects hosts missing a metric named in metrics_weight_setting.",
  reasons: {
    METRIC_MISSING: "not reporting a weighed metric",
  },
  advice: {
    METRIC_MISSING:
      "The remaining hosts do not report the metrics of metrics_weight_setting: fix the hosts' monitors, or change the setting.",
  },
  reads: {
    options: ["metrics_weight_setting"],
  },
  factory: (config) => {
    const keys = [...new Set(parseMetricsWeightSetting(config.metricsWeightSetting).map(([k]) => k))];
    return {
      name: "MetricsFilter",
      runOncePerRequest: false,
      check(host) {
        for (let i = 0; i < keys.length; i++) {
          if (!host.metricNames.includes(keys[i]))
            return {
              code: "METRIC_MISSING",
              message: `missing metric ${keys.filter((k) => !host.metricNames.includes(k)).join(", ")}`,
            };
        }
        return null;
      },
    };
  },
});
