/**
 * Small scenarios for the per-filter and per-weigher tests: a few hosts with
 * everything a filter may read set to plain defaults, one request, and the
 * verdict or raw weight of ONE filter or weigher per host, computed the way
 * the engine calls it (config resolved, prepare() once, then each host).
 *
 * The expected values in those tests are Nova's. To check them against the
 * reference: `SCHEDSCOPE_UNIT_CASES=/tmp/cases npx vitest run
 * lib/scheduler/filters lib/scheduler/weighers` writes every case as a
 * scenario that enables only that filter or weigher, with our answer, and
 * `python3 lib/scheduler/conformance/tools/check-unit-cases.py /tmp/cases`
 * runs each through nova_reference.py and compares.
 */
import fs from "node:fs";
import path from "node:path";
import { resolveConfig } from "@/lib/scheduler/config";
import { buildHostStates } from "@/lib/scheduler/host-state";
import type { FilterDescriptor, WeigherDescriptor } from "@/lib/scheduler/plugin";
import { buildRequestSpec } from "@/lib/scheduler/request-spec";
import type {
  Scenario,
  ScenarioAggregate,
  ScenarioConfig,
  ScenarioFlavor,
  ScenarioHost,
  ScenarioRequest,
  ScenarioServerGroup,
} from "@/lib/scheduler/scenario";

/** A compute host: 16 vCPUs, 32 GiB, 500 GB, QEMU x86_64, up and enabled; override what the case is about. */
export function host(name: string, over: Partial<ScenarioHost> = {}): ScenarioHost {
  return {
    name,
    vcpus: 16,
    memory_mb: 32768,
    local_gb: 500,
    hypervisor_type: "QEMU",
    hypervisor_version: 6002000,
    host_ip: "10.0.0.1",
    supported_instances: [["x86_64", "qemu", "hvm"]],
    cpu_info: { arch: "x86_64" },
    service: { disabled: false, up: true, forced_down: false },
    ...over,
  };
}

export interface Case {
  hosts: ScenarioHost[];
  aggregates?: ScenarioAggregate[];
  server_groups?: ScenarioServerGroup[];
  /** the boot request; `flavor` fields are merged over a 2 vCPU / 4 GiB / 20 GB flavor */
  request?: Partial<Omit<ScenarioRequest, "flavor">> & { flavor?: Partial<ScenarioFlavor> };
  config?: ScenarioConfig;
}

export function scenarioOf(c: Case): Scenario {
  const { flavor, ...request } = c.request ?? {};
  return {
    config: c.config,
    hosts: c.hosts,
    aggregates: c.aggregates,
    server_groups: c.server_groups,
    request: {
      flavor: { name: "m1.small", vcpus: 2, memory_mb: 4096, root_gb: 20, ...flavor },
      num_instances: 1,
      ...request,
    },
  };
}

function prepared(c: Case) {
  const scenario = scenarioOf(c);
  const hosts = buildHostStates(scenario);
  const config = resolveConfig(scenario.config);
  return { hosts, spec: buildRequestSpec(scenario, hosts, config), config };
}

let dumped = 0;
/** With SCHEDSCOPE_UNIT_CASES set: the case as a one-filter or one-weigher scenario, and our answer. */
function dump(kind: "filter" | "weigher", name: string, c: Case, ours: unknown): void {
  const dir = process.env.SCHEDSCOPE_UNIT_CASES;
  // The reference runs Zed: a case under a later release cannot be checked by it.
  if (!dir || (c.config?.nova_release ?? "zed") !== "zed") return;
  const scenario = scenarioOf(c);
  scenario.config = {
    ...scenario.config,
    enabled_filters: kind === "filter" ? [name] : [],
    weighers: kind === "weigher" ? [name] : [],
  };
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${name}-${process.pid}-${++dumped}.json`);
  fs.writeFileSync(file, JSON.stringify({ kind, name, scenario, ours }, null, 1));
}

/** host name → null (passes) or the message of the filter's reason (rejected). */
export function verdicts({ factory }: FilterDescriptor, c: Case): Record<string, string | null> {
  const { hosts, spec, config } = prepared(c);
  const filter = factory(config);
  filter.prepare?.(spec);
  const out = Object.fromEntries(
    hosts.map((h) => {
      const why = filter.check(h, spec);
      return [h.host, why === null || typeof why === "string" ? why : why.message];
    }),
  );
  dump("filter", filter.name, c, { passed: hosts.filter((h) => out[h.host] === null).map((h) => h.host) });
  return out;
}

/** host name → the weigher's raw value and multiplier for that host. */
export function weights(
  { factory }: WeigherDescriptor,
  c: Case,
): Record<string, { raw: number; multiplier: number; source: string }> {
  const { hosts, spec, config } = prepared(c);
  const weigher = factory(config);
  const out = Object.fromEntries(
    hosts.map((h) => {
      const m = weigher.multiplier(h);
      return [h.host, { raw: weigher.weigh(h, spec), multiplier: m.value, source: m.source }];
    }),
  );
  dump("weigher", weigher.name, c, { weights: out });
  return out;
}

/** host name → null (passes) or the code of the filter's reason (rejected). */
export function reasonCodes({ factory }: FilterDescriptor, c: Case): Record<string, string | null> {
  const { hosts, spec, config } = prepared(c);
  const filter = factory(config);
  filter.prepare?.(spec);
  return Object.fromEntries(hosts.map((h) => [h.host, filter.check(h, spec)?.code ?? null]));
}
