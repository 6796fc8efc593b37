/**
 * Rebuilding a scheduling call's request. Nova's scheduler log names the
 * instances, not the flavor; placement-api's request log has the
 * allocation-candidates query Nova built from the flavor (under Nova's
 * request id). The flavor is the cloud's flavor of those sizes (which also
 * carries the extra specs Placement never sees), else one made of the query.
 */
import type { ScenarioFlavor, ScenarioRequest } from "../scheduler/scenario";
import type { RequestFor } from "./explain";
import type { SchedulingCall } from "./types";

export interface QueryResources {
  /** Unnumbered group: class -> amount. */
  resources: Record<string, number>;
  /** Required traits of the unnumbered group (root_required's Nova adds itself are left out). */
  required: string[];
  forbidden: string[];
  /** Numbered groups: suffix -> class -> amount. */
  groups: Record<string, Record<string, number>>;
}

// Traits Nova's request filters add on their own (not from the flavor).
const FROM_REQUEST_FILTERS = new Set(["COMPUTE_STATUS_DISABLED"]);

export function parseAllocationQuery(query: string): QueryResources {
  const out: QueryResources = { resources: {}, required: [], forbidden: [], groups: {} };
  let params: URLSearchParams;
  try {
    params = new URLSearchParams(query);
  } catch {
    return out;
  }
  const amounts = (v: string) => {
    const r: Record<string, number> = {};
    for (const part of v.split(",")) {
      const [k, n] = part.split(":");
      if (k && n !== undefined && Number.isFinite(Number(n))) r[k] = Number(n);
    }
    return r;
  };
  for (const [k, v] of params) {
    if (k === "resources") out.resources = amounts(v);
    else if (/^resources[\w-]+$/.test(k)) out.groups[k.slice("resources".length)] = amounts(v);
    else if (k === "required") {
      for (const t of v.split(",")) {
        const name = t.replace(/^!/, "");
        if (FROM_REQUEST_FILTERS.has(name)) continue;
        (t.startsWith("!") ? out.forbidden : out.required).push(name);
      }
    }
  }
  return out;
}

/** The flavor a query asks for: the cloud's flavor of those sizes, else one named after the sizes. */
export function flavorFromQuery(q: QueryResources, flavors: ScenarioFlavor[]): ScenarioFlavor | null {
  const vcpus = q.resources.VCPU ?? q.resources.PCPU;
  const ram = q.resources.MEMORY_MB;
  if (vcpus === undefined || ram === undefined) return null;
  const disk = q.resources.DISK_GB ?? 0;
  const same = flavors.filter((f) => {
    const fdisk = (f.root_gb ?? 0) + (f.ephemeral_gb ?? 0) + Math.ceil((f.swap ?? 0) / 1024);
    return f.vcpus === vcpus && f.memory_mb === ram && (fdisk === disk || (disk === 0 && (f.root_gb ?? 0) > 0));
  });
  // Several flavors of one size: the one whose extra specs ask for the query's other classes and traits.
  const score = (f: ScenarioFlavor) => {
    const specs = f.extra_specs ?? {};
    let s = 0;
    for (const c of Object.keys(q.resources)) if (specs[`resources:${c}`] !== undefined) s++;
    for (const t of q.required) if (specs[`trait:${t}`] === "required") s++;
    return s;
  };
  if (same.length) return same.sort((a, b) => score(b) - score(a))[0];
  const extra: Record<string, string> = {};
  for (const [c, n] of Object.entries(q.resources)) {
    if (!["VCPU", "PCPU", "MEMORY_MB", "DISK_GB"].includes(c)) extra[`resources:${c}`] = String(n);
  }
  if (q.resources.PCPU !== undefined) extra["hw:cpu_policy"] = "dedicated";
  for (const t of q.required) extra[`trait:${t}`] = "required";
  for (const t of q.forbidden) extra[`trait:${t}`] = "forbidden";
  for (const [g, res] of Object.entries(q.groups)) {
    for (const [c, n] of Object.entries(res)) extra[`resources${g}:${c}`] = String(n);
  }
  return {
    name: `${vcpus} vCPU, ${ram} MB, ${disk} GB`,
    vcpus,
    memory_mb: ram,
    root_gb: disk,
    ephemeral_gb: 0,
    extra_specs: extra,
  } as ScenarioFlavor;
}

/**
 * The request of a call: the scenario's own request when the cloud file is a
 * scenario; else the flavor from Placement's query. Sized to the instances
 * Nova scheduled.
 */
export function requestFor(flavors: ScenarioFlavor[]): RequestFor {
  return (call: SchedulingCall, cloud: { request?: ScenarioRequest }) => {
    const n = call.instanceUuids.length || 1;
    if (cloud.request) return { ...cloud.request, num_instances: n };
    if (!call.placementQuery) return null;
    const flavor = flavorFromQuery(parseAllocationQuery(call.placementQuery), flavors);
    return flavor ? { flavor, num_instances: n } : null;
  };
}
