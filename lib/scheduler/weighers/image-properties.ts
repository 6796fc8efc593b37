import { parseMetricsWeightSetting } from "../config";
import type { ImageProps } from "../image-meta";
import type { WeigherFactory } from "../plugin";
import type { PyValue } from "../python";

/**
 * Raw value of Nova's ImagePropertiesWeigher (2025.1, written from memory of
 * nova/scheduler/weights/image_props.py: the installed Nova is Zed): for
 * each instance on the host and each property of the request's image that
 * the instance's image has with the same value, add that property's ratio
 * from image_props_weight_setting (1.0 when the setting does not name it;
 * a ratio of 0 ignores the property).
 */
export function imagePropertiesWeight(
  request: ImageProps,
  instances: readonly ImageProps[],
  ratios: ReadonlyMap<string, number>,
): number {
  let weight = 0.0;
  for (const inst of instances) {
    for (const [prop, value] of request) {
      const theirs = inst.get(prop);
      if (theirs !== undefined && samePyValue(theirs, value)) weight += ratios.get(prop) ?? 1.0;
    }
  }
  return weight;
}

function samePyValue(a: PyValue, b: PyValue): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

const NO_INSTANCES: readonly ImageProps[] = [];

/**
 * ImagePropertiesWeigher (2025.1+): > 0 packs instances booted from images
 * with the same properties, < 0 spreads them. Nova reads each instance's
 * image properties from its database; a scenario lists a host's instances
 * by UUID only, so here every host has none to compare, weighs 0, and the
 * weigher cannot change the ranking.
 */
export const ImagePropertiesWeigher: WeigherFactory = (config) => {
  const ratios = new Map(parseMetricsWeightSetting(config.imagePropsWeightSetting));
  return {
    name: "ImagePropertiesWeigher",
    weigh: (_host, spec) => imagePropertiesWeight(spec.imageProps, NO_INSTANCES, ratios),
    multiplier: (host) =>
      host.aggregates.weightMultiplier("image_props_weight_multiplier", config.imagePropsWeightMultiplier),
  };
};
