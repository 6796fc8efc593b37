/**
 * Moves of an existing instance (SCENARIO.md "Moves"): resize, migrate,
 * live-migrate, evacuate, unshelve. A move scenario is read here into the
 * request the scheduler sees (the new or current flavor, the instance's
 * image, the group the instance belongs to, one instance) and a Move; the
 * RequestSpec is then prepared as nova-api and nova-conductor prepare it
 * (conductor.ts), and the same scheduler runs as for a boot.
 */
import type { Scenario, ScenarioHost, ScenarioMoveInstance, MoveOperation, ScenarioRequest } from "../scenario";
import { NovaError, pyIntOfJson, pyTruthy, type PyValue } from "../python";

export const OPERATIONS: readonly MoveOperation[] = ["resize", "migrate", "live-migrate", "evacuate", "unshelve"];

/**
 * Whether the conductor asks the scheduler for alternates:
 * MigrationTask._schedule does; LiveMigrationTask._find_destination,
 * ComputeTaskManager.rebuild_instance and unshelve_instance do not.
 */
export const RETURN_ALTERNATES: Record<MoveOperation, boolean> = {
  resize: true,
  migrate: true,
  "live-migrate": false,
  evacuate: false,
  unshelve: false,
};

/** The scenario does not describe a valid move (not an answer of Nova's). */
export class ScenarioError extends Error {}

/** RequestSpec.requested_destination as the move sets it. */
export interface Destination {
  host: string | null;
  node: string | null;
  /** The cell whose hosts the HostManager loads. */
  cell: string;
  allowCrossCellMove: boolean;
}

/** The result's "move" block: what was moved and the RequestSpec Nova built. */
export interface MoveEcho {
  operation: MoveOperation;
  instance: string;
  source: string | null;
  target_host?: string | null;
  force?: boolean;
  request_spec?: {
    flavor: string;
    ignore_hosts: string[] | null;
    force_hosts: null;
    force_nodes: null;
    requested_destination: { host: string | null; node: string | null; cell: string; allow_cross_cell_move: boolean };
    instance_uuid: string;
    num_instances: 1;
    scheduler_hints: Record<string, string[]>;
    instance_group: string | null;
    return_alternates: boolean;
  };
  source_allocation?: {
    host: string;
    resources: Record<string, number>;
    consumer: "migration" | "instance";
    migration_uuid?: string;
  };
  /**
   * What a real cloud would still check that neither the reference nor the
   * engine answers: set on a live migration that ends on a host (the
   * destination compute's own pre-checks, conductor-tasks.ts DESTINATION_CHECKS).
   */
  not_checked?: string;
  /** Live-migrate: hosts the scheduler chose and the conductor refused, in order, then ignored. */
  skipped_hosts?: Array<{ host: string; error: string; reason: string }>;
}

export interface Move {
  operation: MoveOperation;
  instance: ScenarioMoveInstance;
  uuid: string;
  /** The source compute node's scenario entry; null for unshelve. */
  source: ScenarioHost | null;
  target: ScenarioHost | null;
  force: boolean;
  returnAlternates: boolean;
  echo: MoveEcho;
}

function flavorId(f: { id?: unknown; name?: unknown }): string {
  return String(f.id ?? f.name);
}

const cellOf = (h: { cell?: string } | null | undefined) => h?.cell ?? "cell1";

/**
 * (scenario', Move) for a move, (scenario, null) for a boot. scenario' is a
 * copy whose request is the one the scheduler sees, in a boot's keys.
 * Throws ScenarioError for an ill-formed move and NovaError where
 * nova-api refuses it before anything is looked up.
 */
export function prepareMove(scenario: Scenario): { scenario: Scenario; move: Move | null } {
  const req = scenario.request as ScenarioRequest & Record<string, unknown>;
  const op = req.operation;
  if (op === undefined) return { scenario, move: null };
  if (!OPERATIONS.includes(op))
    throw new ScenarioError(`request.operation must be one of ${OPERATIONS.join(", ")}, not ${JSON.stringify(op)}`);
  const inst = req.instance;
  if (!inst || typeof inst !== "object" || !inst.uuid || !inst.flavor || typeof inst.flavor !== "object")
    throw new ScenarioError("a move needs request.instance with uuid and flavor");
  const uuid = inst.uuid;
  for (const key of ["ignore_hosts", "server_group"] as const) {
    if (pyTruthy(req[key] as PyValue))
      throw new ScenarioError(`request.${key} is not part of a move: Nova derives it (see SCENARIO.md, Moves)`);
  }
  if (pyIntOfJson(req.num_instances ?? 1, "request.num_instances") !== 1)
    throw new ScenarioError("a move schedules one instance: num_instances must be 1");
  if (op === "resize") {
    if (!req.flavor || typeof req.flavor !== "object")
      throw new ScenarioError("resize needs request.flavor (the new flavor)");
  } else if (req.flavor != null) {
    throw new ScenarioError(`request.flavor is the new flavor of a resize; ${op} keeps request.instance.flavor`);
  }
  if (req.image != null) throw new ScenarioError("a move uses request.instance.image, not request.image");
  const force = pyTruthy((req.force ?? false) as PyValue);
  const targetName = req.target_host;
  if (force && op !== "live-migrate" && op !== "evacuate")
    throw new ScenarioError("force is only for live-migrate and evacuate");
  // api/openstack/compute/{migrate_server,evacuate}.py
  if (force && !targetName) throw new NovaError("HTTPBadRequest", "Can't force to a non-provided destination");
  if (targetName && op === "resize")
    throw new ScenarioError("resize takes no target_host (host_name is None for a resize); use migrate");

  const hosts = scenario.hosts;
  const holders = hosts.filter((h) => (h.instances ?? []).includes(uuid));
  let source: ScenarioHost | null = null;
  if (op === "unshelve") {
    if (holders.length)
      throw new ScenarioError(
        `unshelve is for a shelved-offloaded instance: ${uuid} must not be in any host's instances (it is on ${holders.map((h) => h.name).join(", ")})`,
      );
    if (inst.host || inst.node) throw new ScenarioError("an offloaded instance has no host/node");
  } else {
    if (!inst.host) throw new ScenarioError(`request.instance.host is required for ${op}`);
    const node = inst.node === undefined ? inst.host : inst.node;
    source = hosts.find((h) => h.name === inst.host && (h.node ?? h.name) === node) ?? null;
    if (!source) throw new ScenarioError(`request.instance: no host "${inst.host}" with node "${node}" in hosts[]`);
    if (!(source.instances ?? []).includes(uuid))
      throw new ScenarioError(
        `instance ${uuid} must be listed in hosts[${source.name}].instances (its usage and group membership are taken from there)`,
      );
    if (holders.length !== 1)
      throw new ScenarioError(`instance ${uuid} is listed on several hosts: ${holders.map((h) => h.name).join(", ")}`);
  }

  let target: ScenarioHost | null = null;
  if (targetName) {
    // compute/api.py looks the host up with its context targeted at the
    // instance's cell: a host of another cell is not found either (for
    // unshelve API.unshelve's own look-up says so, after the RequestSpec is
    // prepared: conductor-tasks.ts).
    const cell = source ? cellOf(source) : (inst.cell ?? "cell1");
    target = hosts.find((h) => h.name === targetName && (op === "unshelve" || cellOf(h) === cell)) ?? null;
    if (!target) throw new NovaError("ComputeHostNotFound", `Compute host ${targetName} could not be found.`);
  }

  const groups = (scenario.server_groups ?? []).filter((g) => (g.members ?? []).includes(uuid));
  if (groups.length > 1) throw new ScenarioError(`instance ${uuid} is a member of several server groups`);

  const {
    operation: _op,
    instance: _inst,
    target_host: _t,
    force: _f,
    flavor: _fl,
    image: _im,
    ...kept
  } = req as ScenarioRequest;
  const request: ScenarioRequest = {
    ...kept,
    flavor: op === "resize" ? req.flavor : inst.flavor,
    num_instances: 1,
  };
  if (inst.image != null) request.image = inst.image;
  if (groups.length) request.server_group = groups[0].uuid || groups[0].name;
  const echo: MoveEcho = { operation: op, instance: uuid, source: source ? source.name : null };
  return {
    scenario: { ...scenario, request },
    move: {
      operation: op,
      instance: inst,
      uuid,
      source,
      target,
      force,
      returnAlternates: RETURN_ALTERNATES[op],
      echo,
    },
  };
}

export { flavorId, cellOf };
