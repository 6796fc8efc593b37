/**
 * A move's allocations in Placement: the instance's allocation on its
 * source (what the scheduler claimed at boot), moved to a migration
 * consumer before scheduling (conductor/tasks/migrate.py
 * replace_allocation_with_migration: resize, migrate, live-migrate) or kept
 * on the instance (evacuate: the scheduler's claim then writes source and
 * destination, the report client's "doubled-up" allocation).
 */
import type { SchedulerConfig } from "../config";
import { stableUuid } from "../nova-uuid";
import { capacity, type PlacementCloud, type Provider, type ResourceProvider } from "../placement/providers";
import { emptyOutput } from "../placement/request-filters";
import { buildResourceRequest } from "../placement/resource-request";
import { NO_VALID_HOST, NovaError } from "../python";
import { buildRequestSpec } from "../request-spec";
import type { Scenario } from "../scenario";
import { type Move, ScenarioError } from ".";
import { unitReason } from "../placement/candidates";

/**
 * scheduler/utils.py resources_from_flavor: the instance's current flavor
 * (is_bfv) as ResourceRequest.from_request_spec merges it, zeros dropped.
 */
export function instanceResources(move: Move, isBfv: boolean, config: SchedulerConfig): Map<string, number> {
  // PCI devices are not Placement resources in Zed: the alias is not read here.
  const { "pci_passthrough:alias": _pci, ...specs } = move.instance.flavor.extra_specs ?? {};
  const flavor = { ...move.instance.flavor, extra_specs: specs };
  const spec = buildRequestSpec({ hosts: [], request: { flavor, is_bfv: isBfv } } as Scenario, [], { pciAlias: [] });
  const rr = buildResourceRequest(spec, emptyOutput(), {
    maxPlacementResults: config.maxPlacementResults,
    enablePinningTranslate: true,
    isBfv,
    forcedNodes: null,
    translateMaxphysaddr: config.release.packedRingAndMaxphysaddrTraits,
    translateTpmModelAndStatelessFirmware: config.release.tpmModelAndStatelessFirmwareTraits,
    memEncryptionModelTrait: config.release.memEncryptionModelTrait,
  });
  const out = new Map<string, number>();
  for (const g of rr.groups.values()) for (const [rc, n] of g.resources) out.set(rc, (out.get(rc) ?? 0) + n);
  return out;
}

/** Placement's _check_capacity_exceeded for one consumer's amounts on a provider whose usage already holds them. */
function fitsAgain(p: ResourceProvider, amounts: Map<string, number>): boolean {
  for (const [rc, n] of amounts) {
    if (!n) continue;
    const inv = p.inventories.get(rc);
    if (!inv || unitReason(rc, n, inv)) return false;
    if (capacity(inv) < (p.used.get(rc) ?? 0)) return false;
  }
  return true;
}

export interface SourceAllocation {
  provider: Provider;
  amounts: Map<string, number>;
  /** The amounts per provider of the source's tree (a vGPU on a child provider of the compute node). */
  parts: Array<{ provider: ResourceProvider; amounts: Map<string, number> }>;
  /**
   * Evacuate: the claim on a destination also rewrites the source's part
   * (the instance keeps it), which Placement checks again.
   */
  claimAlsoChecks: boolean;
}

/**
 * The instance's allocation as Placement holds it on the source's tree:
 * each class on the provider of the tree that has it and holds that much
 * (the compute node first, then its children: a vGPU's physical GPU).
 * Pinned CPUs on a node that reports no PCPU inventory were allocated as
 * VCPU (Nova's fallback query, [workarounds] disable_fallback_pcpu_query
 * false), so that is what the source holds.
 */
function sourceParts(
  root: Provider,
  amounts: Map<string, number>,
): Array<{ provider: ResourceProvider; amounts: Map<string, number> }> {
  const pcpu = amounts.get("PCPU");
  if (pcpu && !root.inventories.has("PCPU") && root.inventories.has("VCPU")) {
    amounts.delete("PCPU");
    amounts.set("VCPU", (amounts.get("VCPU") ?? 0) + pcpu);
  }
  const parts = new Map<ResourceProvider, Map<string, number>>();
  for (const [rc, n] of amounts) {
    const holder =
      [root, ...root.children].find((p) => p.inventories.has(rc) && (p.used.get(rc) ?? 0) >= n) ??
      [root, ...root.children].find((p) => p.inventories.has(rc)) ??
      root;
    const part = parts.get(holder) ?? new Map<string, number>();
    part.set(rc, n);
    parts.set(holder, part);
  }
  return [...parts].map(([provider, a]) => ({ provider, amounts: a }));
}

/**
 * Before select_destinations: the source's usage must hold the instance's
 * allocation (else the scenario is inconsistent), and moving it to a
 * migration consumer (POST /allocations) must pass Placement's checks, or
 * the conductor gives up: NoValidHost "Unable to replace instance claim on
 * source". Fills the move's `source_allocation`.
 */
export function holdSourceAllocation(
  move: Move,
  cloud: PlacementCloud,
  amounts: Map<string, number>,
): SourceAllocation {
  const src = move.source!;
  const node = src.node ?? src.name;
  const provider = cloud.providers.find((p) => p.host.host === src.name && p.host.nodename === node)!;
  const parts = sourceParts(provider, amounts);
  for (const part of parts)
    for (const [rc, n] of part.amounts) {
      const used = part.provider.used.get(rc) ?? 0;
      if (!part.provider.inventories.has(rc) || used < n)
        throw new ScenarioError(
          `the usage of ${src.name} (${rc} used: ${used}) must include instance ${move.uuid}'s allocation (${rc}: ${n})`,
        );
    }
  const resources: Record<string, number> = {};
  for (const rc of [...amounts.keys()].sort()) resources[rc] = amounts.get(rc)!;
  const toMigration = move.operation !== "evacuate";
  if (toMigration && !parts.every((part) => fitsAgain(part.provider, part.amounts)))
    throw new NovaError("NoValidHost", `${NO_VALID_HOST} Unable to replace instance claim on source`);
  move.echo.source_allocation = toMigration
    ? { host: src.name, resources, consumer: "migration", migration_uuid: stableUuid(`migration-${move.uuid}`) }
    : { host: src.name, resources, consumer: "instance" };
  return { provider, amounts, parts, claimAlsoChecks: !toMigration };
}

/** Whether an evacuation's claim passes on the source's side too. */
export function sourceStillFits(src: SourceAllocation): boolean {
  return !src.claimAlsoChecks || src.parts.every((part) => fitsAgain(part.provider, part.amounts));
}
