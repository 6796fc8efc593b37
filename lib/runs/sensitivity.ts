/**
 * Weight sensitivity: how far each configured multiplier can move before
 * the chosen host stops being the best. A host's weight is a sum of
 * multiplier × normalised value, and normalised values do not depend on
 * multipliers (min-max over the survivors), so for one multiplier x every
 * host's weight is a line a + b·x (b = its normalised value when its
 * multiplier comes from the config, 0 when an aggregate overrides it). The
 * winner stays the winner while its line is above every other host's; the
 * ends of that interval are where it flips and to whom. Pure: works on a
 * stored result document. The "try" control re-runs the engine to confirm.
 */
import { OPTION_DOCS } from "@/lib/scheduler/config";
import type { RequestResult } from "@/lib/scheduler/result";
import type { ScenarioConfig } from "@/lib/scheduler/scenario";

/** Weigher → the nova.conf multiplier it reads (aggregate metadata overrides use the same key). */
export const MULTIPLIER_KEY: Record<string, keyof ScenarioConfig> = {
  RAMWeigher: "ram_weight_multiplier",
  CPUWeigher: "cpu_weight_multiplier",
  DiskWeigher: "disk_weight_multiplier",
  IoOpsWeigher: "io_ops_weight_multiplier",
  PCIWeigher: "pci_weight_multiplier",
  ServerGroupSoftAffinityWeigher: "soft_affinity_weight_multiplier",
  ServerGroupSoftAntiAffinityWeigher: "soft_anti_affinity_weight_multiplier",
  BuildFailureWeigher: "build_failure_weight_multiplier",
  CrossCellWeigher: "cross_cell_move_weight_multiplier",
  HypervisorVersionWeigher: "hypervisor_version_weight_multiplier",
  NumInstancesWeigher: "num_instances_weight_multiplier",
  MetricsWeigher: "metrics_weight_multiplier",
  ImagePropertiesWeigher: "image_props_weight_multiplier",
};

/**
 * The factor between the configured value and the multiplier Nova applies:
 * BuildFailureWeigher.weight_multiplier() returns -1 × the option, so more
 * failed builds weigh less as the option grows.
 */
export const MULTIPLIER_SIGN: Partial<Record<string, number>> = { BuildFailureWeigher: -1 };

/**
 * Weighers whose raw values depend on whether the configured multiplier is
 * 0: ImagePropertiesWeigher skips its work and weighs every host 0 then, so
 * a run at 0 says nothing of how hosts weigh at any other value.
 */
const SKIPPED_AT_ZERO = new Set(["ImagePropertiesWeigher"]);

export interface Flip {
  /** The multiplier value where the winner and `host` weigh the same. */
  at: number;
  /** Who wins beyond that value. */
  host: string;
}

export interface WeigherSensitivity {
  weigher: string;
  key: keyof ScenarioConfig;
  /** The configured value the run used. */
  value: number;
  /** The winner stays ahead of the runner-up for multipliers in (low, high); null = unbounded (or, low, from `min` up). */
  runnerUp: { low: Flip | null; high: Flip | null };
  /** The winner stays ahead of every other survivor in (low, high). */
  all: { low: Flip | null; high: Flip | null };
  /** Smallest value nova.conf accepts for this option (e.g. 0 for pci_weight_multiplier). */
  min?: number;
  /** Hosts whose multiplier comes from an aggregate, not the config: their line does not move. */
  overridden: number;
  /** Why no range could be computed from this run (the interval fields are then unbounded); a re-run answers. */
  unknown?: string;
}

export interface Sensitivity {
  winner: string;
  runnerUp: string | null;
  weighers: WeigherSensitivity[];
}

const fromConfig = (source: string) => source.startsWith("config");
const tol = (x: number) => 1e-9 * Math.max(1, Math.abs(x));
const near = (x: number, y: number) => Math.abs(x - y) <= tol(x);

/**
 * Sensitivity of the winner of one instance's weighing to each configured
 * multiplier. Needs at least two weighed hosts.
 */
export function weightSensitivity(req: RequestResult, config: ScenarioConfig): Sensitivity | null {
  const hosts = req.weighed;
  if (hosts.length < 2) return null;
  const win = hosts[0];
  const names = Object.keys(win.weighers);
  const out: WeigherSensitivity[] = [];
  for (const name of names) {
    const key = MULTIPLIER_KEY[name];
    if (!key) continue;
    const doc = OPTION_DOCS.find((o) => o.key === key);
    const configured = typeof config[key] === "number" ? (config[key] as number) : Number(doc?.default ?? Number.NaN);
    const sign = MULTIPLIER_SIGN[name] ?? 1;
    // Each host's weight as a + b·x in this weigher's configured multiplier x
    // (the applied multiplier is sign·x).
    const line = (h: (typeof hosts)[number]) => {
      const w = h.weighers[name];
      if (!w) return { a: h.weight, b: 0 };
      if (!fromConfig(w.source)) return { a: h.weight, b: 0 };
      return { a: h.weight - w.multiplier * w.normalized, b: sign * w.normalized };
    };
    const lw = line(win);
    let overridden = 0;
    for (const h of hosts) if (h.weighers[name] && !fromConfig(h.weighers[name].source)) overridden++;
    const bounds = (others: typeof hosts) => {
      let low: Flip | null = null;
      let high: Flip | null = null;
      let lowSlope = 0;
      let highSlope = 0;
      for (const h of others) {
        const lh = line(h);
        // winner − other = da + db·x; it stays ahead while that is > 0
        const da = lw.a - lh.a;
        const db = lw.b - lh.b;
        if (db === 0) continue;
        const at = -da / db;
        if (!Number.isFinite(at)) continue;
        // Several hosts can cross at one point: the steepest line is the one ahead just past it.
        if (db > 0) {
          if (!low || at > low.at + tol(at) || (near(at, low.at) && db > lowSlope)) {
            low = { at, host: h.host };
            lowSlope = db;
          }
        } else if (!high || at < high.at - tol(at) || (near(at, high.at) && -db > highSlope)) {
          high = { at, host: h.host };
          highSlope = -db;
        }
      }
      // Below the least value nova.conf accepts there is nothing to flip to.
      if (low && doc?.min !== undefined && low.at < doc.min) low = null;
      return { low, high };
    };
    if (SKIPPED_AT_ZERO.has(name) && configured === 0) {
      const none = { low: null, high: null };
      out.push({
        weigher: name,
        key,
        value: configured,
        runnerUp: none,
        all: none,
        ...(doc?.min !== undefined ? { min: doc.min } : {}),
        overridden,
        unknown: "at 0 this weigher skips its work, so this run does not show how hosts weigh otherwise: try a value",
      });
      continue;
    }
    out.push({
      weigher: name,
      key,
      value: configured,
      runnerUp: bounds([hosts[1]]),
      all: bounds(hosts.slice(1)),
      ...(doc?.min !== undefined ? { min: doc.min } : {}),
      overridden,
    });
  }
  return { winner: win.host, runnerUp: hosts[1].host, weighers: out };
}
