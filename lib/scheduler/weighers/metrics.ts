import { parseMetricsWeightSetting } from "../config";
import { defineWeigher } from "../plugin";
import { NovaError } from "../python";

/**
 * MetricsWeigher: sum of metric × ratio over metrics.weight_setting. A
 * missing metric raises ComputeHostMetricNotFound when metrics are required,
 * else the host weighs weight_of_unavailable (if that metric counts at all).
 */
export const MetricsWeigher = defineWeigher({
  name: "MetricsWeigher",
  doc: "Host metrics weighed by metrics_weight_setting.",
  multiplier: "metrics_weight_multiplier",
  configured: (config) => config.metricsWeightMultiplier,
  factory: (config, multiplier) => {
    const setting = parseMetricsWeightSetting(config.metricsWeightSetting);
    return {
      weigh(host) {
        let value = 0.0;
        for (let i = 0; i < setting.length; i++) {
          const name = setting[i][0];
          const ratio = setting[i][1];
          const m = host.metric(name);
          if (m !== undefined) {
            value += m * ratio;
            continue;
          }
          if (config.metricsRequired) {
            throw new NovaError(
              "ComputeHostMetricNotFound",
              `Metric ${name} not found on host ${host.host}:${host.nodename}`,
            );
          }
          if (ratio * multiplier(host).value !== 0) return config.metricsWeightOfUnavailable;
        }
        return value;
      },
    };
  },
});
