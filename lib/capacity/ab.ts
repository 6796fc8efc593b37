/**
 * A/B over a workload: the same flavor mix of N boots filled under two
 * scheduler configurations (two profiles, or two releases' defaults) on
 * throwaway copies of one cloud, compared on what an operator weighs:
 * instances placed, the first failure, hosts used, spread (how many hosts
 * run 1, 2, 3 … of the new instances) and capacity left stranded.
 */
import { CapacityFill, type FlavorShare } from "@/lib/scheduler/fill";
import { toResult } from "@/lib/scheduler/result";
import type { Scenario, ScenarioConfig, ScenarioFlavor } from "@/lib/scheduler/scenario";
import { fragmentation } from "./fragmentation";

export interface WorkloadOutcome {
  label: string;
  placed: number;
  /** The boot that failed first (1-based), its flavor and why; null when all N were placed. */
  firstFailure: { boot: number; flavor: string | null; error: string; summary: string | null } | null;
  hostsUsed: number;
  /** instances per host → number of hosts with that many new instances. */
  spread: Array<{ instances: number; hosts: number }>;
  strandedHosts: number;
  freeVcpus: number;
  freeRamMb: number;
}

export function runWorkload(
  cloud: Omit<Scenario, "request">,
  label: string,
  config: ScenarioConfig | undefined,
  mix: FlavorShare[],
  boots: number,
  flavors: ScenarioFlavor[],
): WorkloadOutcome {
  const scenario: Scenario = { ...cloud, config, request: { flavor: mix[0].flavor, num_instances: 1 } };
  // Host states are built from the scenario for each fill: the cloud itself is never touched.
  const fill = new CapacityFill(scenario, { limit: boots, mix });
  fill.step(Number.POSITIVE_INFINITY);
  const r = fill.result();
  const hist = new Map<number, number>();
  for (const n of r.perHost.values()) hist.set(n, (hist.get(n) ?? 0) + 1);
  const frag = fragmentation(r, flavors);
  const doc = r.stoppedBy ? toResult(r.stoppedBy) : null;
  return {
    label,
    placed: r.count,
    firstFailure: doc
      ? {
          boot: r.count + 1,
          flavor: r.stoppedFlavor,
          error: doc.error ?? "NoValidHost",
          summary: doc.diagnosis?.summary ?? doc.message ?? null,
        }
      : null,
    hostsUsed: r.perHost.size,
    spread: [...hist].sort((a, b) => a[0] - b[0]).map(([instances, hosts]) => ({ instances, hosts })),
    strandedHosts: frag.stranded.length,
    freeVcpus: frag.freeVcpus,
    freeRamMb: frag.freeRamMb,
  };
}

export function compareWorkload(
  cloud: Omit<Scenario, "request">,
  a: { label: string; config: ScenarioConfig | undefined },
  b: { label: string; config: ScenarioConfig | undefined },
  mix: FlavorShare[],
  boots: number,
  flavors: ScenarioFlavor[] = mix.map((m) => m.flavor),
): [WorkloadOutcome, WorkloadOutcome] {
  return [
    runWorkload(cloud, a.label, a.config, mix, boots, flavors),
    runWorkload(cloud, b.label, b.config, mix, boots, flavors),
  ];
}
