import type { PrefilterFactory } from "../plugin";

/** Required and forbidden traits from trait:NAME=required|forbidden and the image's traits_required. */
export const TraitsPrefilter: PrefilterFactory = () => {
  let required: string[] = [];
  let forbidden: string[] = [];
  return {
    name: "traits",
    prepare(spec) {
      required = [];
      forbidden = [];
      for (const { key, value } of spec.flavor.extraSpecs) {
        if (!key.startsWith("trait:")) continue;
        if (value === "required") required.push(key.slice(6));
        else if (value === "forbidden") forbidden.push(key.slice(6));
      }
      const imgTraits = spec.imageProps.get("traits_required");
      if (Array.isArray(imgTraits)) required.push(...(imgTraits as string[]));
    },
    check(host) {
      for (const t of required) if (!host.traits.has(t)) return `missing required trait ${t}`;
      for (const t of forbidden) if (host.traits.has(t)) return `forbidden trait ${t} present`;
      return null;
    },
  };
};
