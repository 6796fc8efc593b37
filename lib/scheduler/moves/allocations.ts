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
import { capacity, type PlacementCloud, type Provider } from "../placement/providers";
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
function fitsAgain(p: Provider, amounts: Map<string, number>): boolean {
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
  /**
   * Evacuate: the claim on a destination also rewrites the source's part
   * (the instance keeps it), which Placement checks again.
   */
  claimAlsoChecks: boolean;
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
  for (const [rc, n] of amounts) {
    const used = provider.used.get(rc) ?? 0;
    if (!provider.inventories.has(rc) || used < n)
      throw new ScenarioError(
        `the usage of ${src.name} (${rc} used: ${used}) must include instance ${move.uuid}'s allocation (${rc}: ${n})`,
      );
  }
  const resources: Record<string, number> = {};
  for (const rc of [...amounts.keys()].sort()) resources[rc] = amounts.get(rc)!;
  const toMigration = move.operation !== "evacuate";
  if (toMigration && !fitsAgain(provider, amounts))
    throw new NovaError("NoValidHost", `${NO_VALID_HOST} Unable to replace instance claim on source`);
  move.echo.source_allocation = toMigration
    ? { host: src.name, resources, consumer: "migration", migration_uuid: stableUuid(`migration-${move.uuid}`) }
    : { host: src.name, resources, consumer: "instance" };
  return { provider, amounts, claimAlsoChecks: !toMigration };
}

/** Whether an evacuation's claim passes on the source's side too. */
export function sourceStillFits(src: SourceAllocation): boolean {
  return !src.claimAlsoChecks || fitsAgain(src.provider, src.amounts);
}
