import { parseMetricsWeightSetting } from "../config";
import type { ImageProps } from "../image-meta";
import type { WeigherFactory } from "../plugin";
import { pyStr } from "../python";

/**
 * Raw value of Nova's ImagePropertiesWeigher (2025.1, acd6c733c6 and
 * 7388362f28, nova/scheduler/weights/image_props.py): the request image's
 * (property, str(value)) pairs that some instance on the host shares, each
 * counted once per instance that has it and weighed by its ratio in
 * image_props_weight_setting. With no setting every property weighs 1.0;
 * with one, a property it does not name weighs 0.0.
 */
export function imagePropertiesWeight(
  request: ImageProps,
  instances: readonly ImageProps[],
  ratios: ReadonlyMap<string, number>,
): number {
  let weight = 0.0;
  if (!instances.length) return weight;
  for (const [prop, value] of request) {
    const ratio = ratios.size ? (ratios.get(prop) ?? 0.0) : 1.0;
    const wanted = pyStr(value);
    let count = 0;
    for (const inst of instances) {
      const theirs = inst.get(prop);
      if (theirs !== undefined && pyStr(theirs) === wanted) count++;
    }
    // Nova: weight += setting.get(prop, 0.0) * existing_props.count((prop, value))
    if (count) weight += ratio * count;
  }
  return weight;
}

/**
 * ImagePropertiesWeigher (2025.1+): > 0 packs instances booted from images
 * with the same properties, < 0 spreads them. A host's instances' image
 * properties come from the scenario's `instance_image_properties`; with the
 * configured multiplier 0 Nova skips the work and weighs 0 (an aggregate's
 * image_props_weight_multiplier does not change that).
 */
export const ImagePropertiesWeigher: WeigherFactory = (config) => {
  const ratios = new Map(parseMetricsWeightSetting(config.imagePropsWeightSetting));
  const off = config.imagePropsWeightMultiplier === 0;
  return {
    name: "ImagePropertiesWeigher",
    weigh: (host, spec) => (off ? 0.0 : imagePropertiesWeight(spec.imageProps, host.instanceImageProps, ratios)),
    multiplier: (host) =>
      host.aggregates.weightMultiplier("image_props_weight_multiplier", config.imagePropsWeightMultiplier),
  };
};
