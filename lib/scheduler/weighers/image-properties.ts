import { parseMetricsWeightSetting } from "../config";
import type { ImageProps } from "../image-meta";
import { defineWeigher } from "../plugin";
import { type HostState, instanceImageProps } from "../host-state";
import { NovaError, pyStr } from "../python";

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
 * Whether the host holds an instance this request placed on it: in a
 * multi-instance server-group request, SchedulerManager._consume_selected_host
 * adds a stub Instance(uuid=...) to the chosen host's instances.
 */
function hasStubInstance(host: HostState): boolean {
  for (const uuid of host.instances) if (!host.instanceList.includes(uuid)) return true;
  return false;
}

/**
 * ImagePropertiesWeigher (2025.1+): > 0 packs instances booted from images
 * with the same properties, < 0 spreads them. A host's instances' image
 * properties come from the scenario's `instance_image_properties`; with the
 * configured multiplier 0 Nova skips the work and weighs 0 (an aggregate's
 * image_props_weight_multiplier does not change that). A host that got a
 * server group's stub instance earlier in the request makes it raise.
 */
export const ImagePropertiesWeigher = defineWeigher({
  name: "ImagePropertiesWeigher",
  doc: "Instances whose images share the request image's properties (2025.1+; a scenario carries none, so 0).",
  multiplier: "image_props_weight_multiplier",
  configured: (config) => config.imagePropsWeightMultiplier,
  factory: (config) => {
    const ratios = new Map(parseMetricsWeightSetting(config.imagePropsWeightSetting));
    const off = config.imagePropsWeightMultiplier === 0;
    // the release's ImageMetaProps: the fields added since Zed weigh too
    const release = config.release.release;
    return {
      weigh: (host, spec) => {
        if (off) return 0.0;
        // The stub has no context: ImageMeta.from_instance's lazy load of its
        // image_ref raises (nova/objects/image_meta.py; still so on master).
        if (spec.instanceGroup && hasStubInstance(host))
          throw new NovaError("OrphanedObjectError", "Cannot call obj_load_attr on orphaned Instance object");
        return imagePropertiesWeight(spec.imageProps, instanceImageProps(host.instanceImages, release), ratios);
      },
    };
  },
});
