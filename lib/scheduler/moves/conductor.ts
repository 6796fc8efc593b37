/**
 * The RequestSpec of a move, as nova-api (compute/api.py API.resize,
 * API.live_migrate, API.evacuate, API.unshelve) and nova-conductor
 * (conductor/tasks/migrate.py MigrationTask._execute,
 * conductor/tasks/live_migrate.py LiveMigrationTask._find_destination,
 * conductor/manager.py rebuild_instance and unshelve_instance) leave it
 * for select_destinations, and the errors they raise before scheduling.
 */
import type { SchedulerConfig } from "../config";
import type { HostState } from "../host-state";
import { pciRequestsFromFlavor } from "../pci/request";
import { NovaError } from "../python";
import type { RequestSpec } from "../request-spec";
import type { ScenarioHost } from "../scenario";
import { cellOf, type Destination, flavorId, type Move } from ".";

const serviceUp = (h: ScenarioHost) => Boolean(h.service?.up ?? true);

/** The checks nova-api and the conductor make before they ask the scheduler. */
function checkBeforeScheduling(move: Move, spec: RequestSpec): void {
  const { operation: op, source: src, target } = move;
  // compute/api.py check_instance_host(check_is_up=True)
  if ((op === "resize" || op === "migrate") && src && !serviceUp(src))
    throw new NovaError("ServiceUnavailable", "Service is unavailable at this time.");
  // LiveMigrationTask._check_host_is_up
  if (op === "live-migrate" && src && !serviceUp(src))
    throw new NovaError("ComputeServiceUnavailable", `Compute service of ${src.name} is unavailable at this time.`);
  if (op === "evacuate" && src) {
    // api/openstack/compute/evacuate.py, before API.evacuate
    if (target && target.name === src.name)
      throw new NovaError("HTTPBadRequest", "The target host can't be the same one.");
    if (serviceUp(src)) throw new NovaError("ComputeServiceInUse", `Compute service of ${src.name} is still in use.`);
  }
  // compute/api.py _validate_host_for_cold_migrate (a forced live-migrate to
  // its own host is the conductor's UnableToMigrateToSelf: conductor-tasks.ts)
  if (target && src && target.name === src.name && op === "migrate")
    throw new NovaError("CannotMigrateToSameHost", "Cannot migrate to the host where the server exists.");
  if (op === "resize") {
    // compute/api.py API.resize
    const old = move.instance.flavor;
    const now = spec.flavor;
    if (flavorId(old) === (now.flavorId ?? now.name))
      throw new NovaError("CannotResizeToSameFlavor", "When resizing, instances must change flavor!");
    if (now.rootGb === 0 && Math.trunc(Number(old.root_gb ?? 0)) !== 0 && !spec.isBfv)
      throw new NovaError(
        "CannotResizeDisk",
        "Server disk was unable to be resized because: Resize to zero disk flavor is not allowed.",
      );
  }
}

/**
 * ComputeNodeList.get_all_by_host(host)[0]: the target's first node
 * (API.live_migrate, API.evacuate, _validate_host_for_cold_migrate).
 */
function firstNode(target: ScenarioHost, hosts: HostState[]): HostState {
  const hs = hosts.find((h) => h.host === target.name);
  if (!hs) throw new NovaError("ComputeHostNotFound", `Compute host ${target.name} could not be found.`);
  return hs;
}

/**
 * Turn the boot-like RequestSpec into the move's. Throws NovaError where
 * Nova refuses the move before scheduling.
 */
export function applyMove(
  move: Move,
  spec: RequestSpec,
  hosts: HostState[],
  config: SchedulerConfig,
  opts: { pciAlias: unknown[] },
): void {
  checkBeforeScheduling(move, spec);
  const { operation: op, source: src, target } = move;
  const cell = src ? cellOf(src) : (move.instance.cell ?? "cell1");

  spec.instanceUuid = move.uuid;
  spec.numInstances = 1;
  // RequestSpec.reset_forced_destinations(), in every move's task
  spec.forceHosts = [];
  spec.forceNodes = [];
  let ignore: string[] | null = null;
  let dest: Destination;
  if (op === "resize" || op === "migrate") {
    // API.resize + _allow_resize_to_same_host: a cold migration stays only
    // on drivers that report COMPUTE_SAME_HOST_COLD_MIGRATE (not libvirt)
    const allowSame =
      op === "resize" ? config.allowResizeToSameHost : (src?.traits ?? []).includes("COMPUTE_SAME_HOST_COLD_MIGRATE");
    ignore = allowSame ? [] : [src!.name];
    if (op === "resize") {
      // Zed's API.resize: get_pci_requests_from_flavor(new_flavor), without
      // the flavor's or image's hw:pci_numa_affinity_policy; the NUMA
      // constraints of the new flavor are what the boot-like spec computed.
      spec.pciRequests = pciRequestsFromFlavor(
        spec.flavor.extraSpecs.find((e) => e.key === "pci_passthrough:alias")?.value,
        opts.pciAlias,
        null,
        config.release.pciAliasRequiresIds,
      );
    }
    const node = target ? firstNode(target, hosts) : null;
    // MigrationTask._set_requested_destination_cell
    dest = { host: node?.host ?? null, node: node?.nodename ?? null, cell, allowCrossCellMove: false };
  } else if (op === "live-migrate" || op === "evacuate") {
    // LiveMigrationTask._find_destination: attempted_hosts = [source];
    // rebuild_instance likewise ignores the source of an evacuation
    ignore = [src!.name];
    const node = target && !move.force ? firstNode(target, hosts) : null;
    dest = { host: node?.host ?? null, node: node?.nodename ?? null, cell, allowCrossCellMove: false };
  } else {
    // API.unshelve (2.91): Destination(host=host), no node
    dest = { host: target?.name ?? null, node: null, cell, allowCrossCellMove: false };
  }
  spec.ignoreHosts = ignore ?? [];
  spec.requestedDestination = dest;

  const hints: Record<string, string[]> = {};
  for (const k of [...spec.hints.keys()].sort()) hints[k] = [...spec.hints.get(k)!];
  move.echo.request_spec = {
    flavor: spec.flavor.name,
    ignore_hosts: ignore,
    force_hosts: null,
    force_nodes: null,
    requested_destination: {
      host: dest.host,
      node: dest.node,
      cell,
      allow_cross_cell_move: dest.allowCrossCellMove,
    },
    instance_uuid: move.uuid,
    num_instances: 1,
    scheduler_hints: hints,
    instance_group: spec.instanceGroup?.name ?? null,
    return_alternates: move.returnAlternates,
  };
  move.echo.target_host = target?.name ?? null;
  move.echo.force = move.force;
}

/**
 * The host states the scheduler loads: HostManager restricts them to
 * requested_destination.cell (cross-cell moves are not modelled).
 */
export function inCell(spec: RequestSpec, hosts: HostState[]): HostState[] {
  const dest = spec.requestedDestination;
  if (!dest || dest.allowCrossCellMove) return hosts;
  return hosts.filter((h) => h.cell === dest.cell);
}
