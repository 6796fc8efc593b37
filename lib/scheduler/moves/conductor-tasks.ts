/**
 * Nova Zed's conductor (and API) code around the scheduler, for the moves
 * whose answer is decided beside it, as ../shared/nova-reference runs it
 * (conductor.py; SCENARIO.md "What the conductor decides"):
 * - live-migrate: LiveMigrationTask._find_destination asks the scheduler,
 *   checks the host it got (_check_compatible_with_source_hypervisor on the
 *   first node of the source host and of that host; _check_can_migrate_pci:
 *   no flavor PCI devices), and on failure ignores that host and asks again,
 *   up to [DEFAULT] migrate_max_retries (MaxRetriesExceeded);
 * - a forced live-migrate (the target's checks, the Placement claim of the
 *   held allocation, PCI) or evacuate (rebuild_instance with a host:
 *   _allocate_for_evacuate_dest_host, the doubled-up Placement claim);
 * - unshelve to a host (API.unshelve: _ensure_host_in_az, then the
 *   scheduler on that host).
 * What the reference still stubs is what the destination compute checks
 * itself (check_can_live_migrate_destination): a live-migrate that ends on a
 * host says so in `not_checked` (DESTINATION_CHECKS).
 */
import type { SchedulerConfig } from "../config";
import type { HostState } from "../host-state";
import type { RequestSpec } from "../request-spec";
import type { ScheduleRun } from "../run";
import { buildPlacementCloud } from "../placement/providers";
import { claim } from "../placement";
import { stableUuid } from "../nova-uuid";
import { NO_VALID_HOST, NovaError } from "../python";
import type { Scenario, ScenarioHost } from "../scenario";
import { cellOf, type Move } from ".";
import { holdSourceAllocation, instanceResources, sourceStillFits } from "./allocations";

/** What the conductor reads of the scheduler it asks. */
export interface ConductorView {
  readonly config: SchedulerConfig;
  readonly hosts: HostState[];
  readonly spec: RequestSpec;
}

const HV_TYPE = "QEMU";
const HV_VERSION = 6002000;

/** ComputeNode.get_first_node_by_host_for_old_compat: the host's first node in the scenario. */
function firstNodeOf(scenario: Scenario, host: string): ScenarioHost {
  const h = scenario.hosts.find((x) => x.name === host);
  if (!h) throw new NovaError("ComputeHostNotFound", `Compute host ${host} could not be found.`);
  return h;
}

/** _check_compatible_with_source_hypervisor: the reason a host is refused, or null. */
function incompatibleHypervisor(source: ScenarioHost, dest: ScenarioHost): { name: string; message: string } | null {
  const st = source.hypervisor_type ?? HV_TYPE;
  const dt = dest.hypervisor_type ?? HV_TYPE;
  if (st !== dt) return { name: "InvalidHypervisorType", message: "The supplied hypervisor type of is invalid." };
  if (Number(source.hypervisor_version ?? HV_VERSION) > Number(dest.hypervisor_version ?? HV_VERSION))
    return {
      name: "DestinationHypervisorTooOld",
      message: "The instance requires a newer hypervisor version than has been provided.",
    };
  return null;
}

/**
 * _check_can_migrate_pci: a flavor's PCI devices are not a Neutron port's:
 * MigrationPreCheckError. From 2025.1 (31.0.0) Nova words it as a device not
 * requested live-migratable (an alias's live_migratable tag would allow it;
 * the engine's alias schema is Zed's, which has no such tag).
 */
function pciRefusal(move: Move, config: SchedulerConfig): { name: string; message: string } | null {
  if (!move.instance.flavor.extra_specs?.["pci_passthrough:alias"]) return null;
  return {
    name: "MigrationPreCheckError",
    message: config.release.liveMigratablePciCheck
      ? "Migration pre-check error: This request does not explicitly request live-migratable devices."
      : "Migration pre-check error: non-VIF related PCI requests for instance are not allowed for live migration.",
  };
}

/** availability_zones.get_host_availability_zone: the first aggregate of the host with an AZ, else the default zone. */
export function hostAvailabilityZone(scenario: Pick<Scenario, "aggregates" | "config">, host: string): string {
  for (const a of scenario.aggregates ?? []) {
    const az = a.availability_zone ?? (a.metadata?.availability_zone as string | undefined);
    if (az && (a.hosts ?? []).includes(host)) return String(az);
  }
  return scenario.config?.default_availability_zone ?? "nova";
}

function resetRun(run: ScheduleRun): void {
  run.traces = [];
  run.selections = [];
  run.error = null;
  delete run.placement;
}

/**
 * What a real cloud still checks on a live migration's destination, which
 * Nova's conductor asks the destination compute over RPC
 * (check_can_live_migrate_destination) and no scheduler or conductor code
 * decides: the reference answers it "succeeds".
 */
export const DESTINATION_CHECKS =
  "the destination compute's own pre-checks (check_can_live_migrate_destination and, through it, the source's check_can_live_migrate_source): CPU model compatibility with the source (libvirt compareCPU), shared or block storage and disk over-commit, the NUMA/PCI live-migration claim in its resource tracker, the source's volume checks, and Neutron port bindings; a failure there skips the host (a forced move fails)";

/** Whether the conductor's code decides around the scheduler (else one select_destinations call is the answer). */
export function conductorDecides(move: Move): boolean {
  return move.force || move.operation === "live-migrate" || (move.operation === "unshelve" && move.target !== null);
}

/**
 * Run the conductor's code for a move conductorDecides() names.
 * `scenario` is the request the scheduler sees (prepareMove's).
 */
export function runConductor(
  move: Move,
  s: ConductorView,
  run: ScheduleRun,
  scenario: Scenario,
  /** One select_destinations call for the move (the scheduler's answer lands in `run`). */
  selectDestinations: () => void,
): void {
  if (move.operation === "live-migrate") {
    // LiveMigrationTask._check_host_is_up(source): the service of the source
    // host's first node (nova-api checked the instance's own node's)
    const first = firstNodeOf(scenario, move.source!.name);
    if (!(first.service?.up ?? true))
      throw new NovaError("ComputeServiceUnavailable", `Compute service of ${first.name} is unavailable at this time.`);
  }
  if (move.force) {
    forcedMove(move, s, run, scenario);
  } else if (move.operation === "live-migrate") {
    findDestination(move, s, run, scenario, selectDestinations);
  } else {
    unshelveToHost(move, scenario, selectDestinations);
  }
  // a live migration that ends on a host: what the destination compute checks itself is not answered
  if (move.operation === "live-migrate" && run.selections.length && !run.error)
    move.echo.not_checked = DESTINATION_CHECKS;
}

/** API.unshelve with a host: _ensure_host_in_az, then unshelve_instance's scheduler call. */
function unshelveToHost(move: Move, scenario: Scenario, selectDestinations: () => void): void {
  // get_first_node_by_host_for_old_compat, the context targeted at the instance's cell
  if (move.target && cellOf(move.target) !== (move.instance.cell ?? "cell1"))
    throw new NovaError("ComputeHostNotFound", `Compute host ${move.target.name} could not be found.`);
  // API.unshelve: a target host must be in the instance's availability zone
  const az = scenario.request.availability_zone;
  if (move.target && az) {
    const hostAz = hostAvailabilityZone(scenario, move.target.name);
    if (hostAz !== az)
      throw new NovaError("UnshelveHostNotInAZ", `Host "${move.target.name}" is not in the availability zone "${az}".`);
  }
  selectDestinations();
}

/**
 * LiveMigrationTask._find_destination: schedule, check the host the
 * scheduler chose, and on failure ignore it and schedule again (the claim
 * on the refused host is removed); _check_not_over_max_retries before each
 * call (migrate_max_retries -1: no limit). The echoed ignore_hosts is the
 * list the last select_destinations call carried.
 */
function findDestination(
  move: Move,
  s: ConductorView,
  run: ScheduleRun,
  scenario: Scenario,
  selectDestinations: () => void,
): void {
  const { spec } = s;
  const source = move.source!;
  const attempted = [source.name];
  const numa = spec.numaTopology;
  const groupHosts = spec.instanceGroup ? [...spec.instanceGroup.hosts] : null;
  const skipped: Array<{ host: string; error: string; reason: string }> = [];
  // the first node of the source host, as get_first_node_by_host_for_old_compat reads it
  const sourceNode = firstNodeOf(scenario, source.name);
  const maxRetries = s.config.migrateMaxRetries;
  for (;;) {
    // _check_not_over_max_retries
    const retries = attempted.length - 1;
    if (maxRetries !== -1 && retries > maxRetries)
      throw new NovaError(
        "MaxRetriesExceeded",
        `Exceeded maximum number of retries. Exceeded max scheduling retries ${retries} for instance ${move.uuid} during live migration`,
      );
    spec.ignoreHosts = [...attempted];
    if (move.echo.request_spec) move.echo.request_spec.ignore_hosts = [...attempted];
    // each select_destinations sees the conductor's RequestSpec, not the scheduler's fitted copy
    spec.numaTopology = numa;
    if (spec.instanceGroup && groupHosts) spec.instanceGroup.hosts = [...groupHosts];
    resetRun(run);
    selectDestinations();
    if (run.error || !run.selections.length) break;
    const host = run.selections[0].host.host;
    const why = incompatibleHypervisor(sourceNode, firstNodeOf(scenario, host)) ?? pciRefusal(move, s.config);
    if (!why) break;
    skipped.push({ host, error: why.name, reason: why.message });
    attempted.push(host);
    // the reference notes a refused host as the conductor removes its allocation
    move.echo.skipped_hosts = [...skipped];
  }
}

/** A forced live-migrate or evacuate: no scheduler, the conductor's checks of the target. */
function forcedMove(move: Move, s: ConductorView, run: ScheduleRun, scenario: Scenario): void {
  const { config, spec } = s;
  const source = move.source!;
  const target = move.target!;
  const dest = firstNodeOf(scenario, target.name);
  // Placement: the instance's allocation on the source (held by a migration for live-migrate)
  let held: ReturnType<typeof holdSourceAllocation> | null = null;
  let cloud: ReturnType<typeof buildPlacementCloud> | null = null;
  if (config.placement) {
    cloud = buildPlacementCloud(scenario, s.hosts, config.release.addedStandardTraits);
    held = holdSourceAllocation(move, cloud, instanceResources(move, !!spec.isBfv, config));
  }
  if (move.operation === "live-migrate") {
    // LiveMigrationTask._check_destination_is_not_source
    if (target.name === source.name)
      throw new NovaError(
        "UnableToMigrateToSelf",
        `Unable to migrate instance (${move.uuid}) to current host (${source.name}).`,
      );
    // LiveMigrationTask._check_host_is_up(destination)
    if (!(dest.service?.up ?? true))
      throw new NovaError(
        "ComputeServiceUnavailable",
        `Compute service of ${target.name} is unavailable at this time.`,
      );
    // _check_destination_has_enough_memory
    const total = Number(dest.memory_mb);
    const free = Number(dest.free_ram_mb ?? total - Number(dest.memory_mb_used ?? 0));
    const avail = total * Number(dest.ram_allocation_ratio ?? 1.0) - (total - free);
    const mem = Number(move.instance.flavor.memory_mb);
    if (!mem || avail <= mem)
      throw new NovaError(
        "MigrationPreCheckError",
        `Migration pre-check error: Unable to migrate ${move.uuid} to ${target.name}: Lack of memory(host:${avail} <= instance:${mem})`,
      );
    const sourceNode = firstNodeOf(scenario, source.name);
    const hv = incompatibleHypervisor(sourceNode, dest);
    if (hv) throw new NovaError(hv.name, hv.message);
    // claim_resources_on_destination reads the held allocation under the
    // source host's FIRST node, while replace_allocation_with_migration held
    // it under the instance's own: from a later node Nova fails on the key
    if ((sourceNode.node ?? sourceNode.name) !== (source.node ?? source.name)) {
      const first = s.hosts.find(
        (h) => h.host === sourceNode.name && h.nodename === (sourceNode.node ?? sourceNode.name),
      );
      throw new NovaError("KeyError", `'${first?.uuid || stableUuid(sourceNode.node ?? sourceNode.name)}'`);
    }
  }
  if (cloud && held) {
    // claim_resources_on_destination: the source's allocation, on the target's first node
    const p = cloud.providers.find((x) => x.host.host === dest.name && x.host.nodename === (dest.node ?? dest.name));
    if (!p || !sourceStillFits(held) || claim(p, held.amounts) !== null)
      throw new NovaError(
        "NoValidHost",
        `${NO_VALID_HOST} Unable to move instance ${move.uuid} to host ${target.name}. There is not enough capacity on the host for the instance.`,
      );
  }
  if (move.operation === "live-migrate") {
    const pci = pciRefusal(move, config);
    if (pci) throw new NovaError(pci.name, pci.message);
    if (cellOf(dest) !== cellOf(source))
      throw new NovaError(
        "MigrationPreCheckError",
        `Migration pre-check error: Unable to force live migrate instance ${move.uuid} across cells.`,
      );
  }
  const host = s.hosts.find((h) => h.host === dest.name && h.nodename === (dest.node ?? dest.name))!;
  run.selections = [{ host, alternates: [], placement: {} }];
}
