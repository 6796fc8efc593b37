import { imagePropGet } from "../image-meta";
import { defineFilter } from "../plugin";
import { pyStr, pyTruthy } from "../python";

/**
 * AggregateImagePropertiesIsolation: for each aggregate metadata key (in the
 * configured namespace) that is also a set image property, the property's
 * value must be one of the metadata's values.
 */
export const AggregateImagePropertiesIsolation = defineFilter({
  name: "AggregateImagePropertiesIsolation",
  doc: "Aggregate metadata that names an image property must match the image's value.",
  reasons: {
    AGGREGATE_IMAGE_PROPS_MISMATCH: "with aggregate metadata not matching the image",
  },
  advice: {
    AGGREGATE_IMAGE_PROPS_MISMATCH:
      "The image's properties do not match the metadata of the remaining hosts' aggregates: use an image whose properties match, or change the aggregate metadata.",
  },
  reads: {
    metadata: ["*"],
    imageProps: ["*"],
    options: ["aggregate_image_properties_isolation_namespace", "aggregate_image_properties_isolation_separator"],
  },
  factory: (config) => {
    const ns = config.aggregateImagePropertiesIsolationNamespace;
    const prefix = ns ? ns + config.aggregateImagePropertiesIsolationSeparator : null;
    return {
      name: "AggregateImagePropertiesIsolation",
      runOncePerRequest: true,
      check(host, spec) {
        for (const [key, options] of host.aggregates.split) {
          if (prefix && !key.startsWith(prefix)) continue;
          const prop = imagePropGet(spec.imageProps, key, config.release.release);
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
  },
});
