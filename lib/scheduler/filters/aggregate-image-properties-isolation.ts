import { imagePropGet } from "../image-meta";
import type { FilterFactory } from "../plugin";
import { pyStr, pyTruthy } from "../python";

/**
 * AggregateImagePropertiesIsolation: for each aggregate metadata key (in the
 * configured namespace) that is also a set image property, the property's
 * value must be one of the metadata's values.
 */
export const AggregateImagePropertiesIsolation: FilterFactory = (config) => {
  const ns = config.aggregateImagePropertiesIsolationNamespace;
  const prefix = ns ? ns + config.aggregateImagePropertiesIsolationSeparator : null;
  return {
    name: "AggregateImagePropertiesIsolation",
    runOncePerRequest: true,
    check(host, spec) {
      for (const [key, options] of host.aggregates.split) {
        if (prefix && !key.startsWith(prefix)) continue;
        const prop = imagePropGet(spec.imageProps, key);
        if (prop === undefined || !pyTruthy(prop)) continue;
        const s = pyStr(prop);
        if (!options.has(s))
          return {
            code: "AGGREGATE_IMAGE_PROPS_MISMATCH",
            message: `image property ${key}=${s} not in aggregate metadata ${key}=${[...options].join(",")}`,
          };
      }
      return null;
    },
  };
};
