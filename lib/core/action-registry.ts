/**
 * Every write the app can make, by name: the least role it needs, the
 * entity its audit entry is about and how that entity is found in the
 * action's input, and whether the form must send the version it was opened
 * at. The mutation wrapper, the role check and the audit trail read this
 * one table; an action missing here does not type-check.
 *
 * Pure (no Next, Prisma or better-auth imports): the users CLI, the audit
 * trail, the session and tests share it from the ground floor.
 */
import { atLeast, type Role } from "./roles";

/** The entities a write can be about (the audit trail reads each: lib/audit/entities.ts). */
export const ENTITY_KINDS = [
  "aggregate",
  "flavor",
  "image",
  "server_group",
  "instance",
  "host",
  "profile",
  "run",
] as const;
export type EntityKind = (typeof ENTITY_KINDS)[number];

export interface ActionSpec {
  role: Role;
  /** The entity the audit entry is about; null: history only (trial runs), or audited on its own (imports). */
  entity: EntityKind | null;
  /**
   * How the entity is found in the input: `id`, `name` (an import that
   * creates or replaces it by name), `host` (a host by name), `run` (a
   * commit: the run and the hosts it places on), `move` (the instance and
   * its source and destination hosts).
   */
  target: "id" | "name" | "host" | "run" | "move" | null;
  /** The action creates its entity (found from what the write returns). */
  creates?: true;
  /** The form must send the version it was opened at (edits, deletes, activation). */
  versioned: boolean;
}

const edit = (role: Role, entity: EntityKind): ActionSpec => ({ role, entity, target: "id", versioned: true });
const create = (role: Role, entity: EntityKind): ActionSpec => ({
  role,
  entity,
  target: null,
  creates: true,
  versioned: false,
});

export const ACTIONS = {
  "aggregate.create": create("admin", "aggregate"),
  "aggregate.rename": edit("admin", "aggregate"),
  "aggregate.zone": edit("admin", "aggregate"),
  "aggregate.delete": edit("admin", "aggregate"),
  "aggregate.hosts.add": edit("admin", "aggregate"),
  "aggregate.hosts.remove": edit("admin", "aggregate"),
  "aggregate.metadata.save": edit("admin", "aggregate"),
  "aggregate.metadata.remove": edit("admin", "aggregate"),
  "flavor.create": create("admin", "flavor"),
  "flavor.update": edit("admin", "flavor"),
  "flavor.delete": edit("admin", "flavor"),
  "flavor.extra_spec.save": edit("admin", "flavor"),
  "flavor.extra_spec.remove": edit("admin", "flavor"),
  "image.create": create("admin", "image"),
  "image.update": edit("admin", "image"),
  "image.delete": edit("admin", "image"),
  "image.property.save": edit("admin", "image"),
  "image.property.remove": edit("admin", "image"),
  "server_group.create": create("admin", "server_group"),
  "server_group.update": edit("admin", "server_group"),
  "server_group.delete": edit("admin", "server_group"),
  "instance.create": create("admin", "instance"),
  "instance.update": edit("admin", "instance"),
  "instance.delete": edit("admin", "instance"),
  // a move's trial is stored as a run; its commit moves the instance as a run's commit places one
  "instance.move-trial": { role: "viewer", entity: null, target: null, versioned: false },
  "instance.move": { role: "operator", entity: "instance", target: "move", versioned: true },
  "host.service": { role: "admin", entity: "host", target: "host", versioned: true },
  "profile.create": create("operator", "profile"),
  "profile.save": edit("operator", "profile"),
  "profile.activate": edit("operator", "profile"),
  "profile.delete": edit("operator", "profile"),
  // creates or replaces the profile it names; a whole file, no form version
  "profile.import-nova-conf": { role: "operator", entity: "profile", target: "name", creates: true, versioned: false },
  // the whole cloud: audited with the file's hash and a summary (importAudit)
  "cloud.import-openstack": { role: "admin", entity: null, target: null, versioned: false },
  // a connection to a cloud's APIs: audited on its own (settings without secrets, lib/sync/actions.ts)
  "connection.save": { role: "admin", entity: null, target: null, versioned: false },
  "connection.delete": { role: "admin", entity: null, target: null, versioned: false },
  // reading a cloud's APIs replaces the cloud, as an import does (audited as one, lib/sync/run.ts)
  "cloud.sync": { role: "admin", entity: null, target: null, versioned: false },
  "sync.schedule": { role: "admin", entity: null, target: null, versioned: false },
  // a trial run is stored: history, not a change to the cloud
  "schedule.run": { role: "viewer", entity: null, target: null, versioned: false },
  "run.rerun": { role: "viewer", entity: null, target: null, versioned: false },
  // the same run under another Nova release: a trial too, open to viewers as re-runs are
  "run.rerun-release": { role: "viewer", entity: null, target: null, versioned: false },
  // checked against the hosts' state under their locks instead of a version
  "run.commit": { role: "operator", entity: "run", target: "run", versioned: false },
} as const satisfies Record<string, ActionSpec>;

export type ActionName = keyof typeof ACTIONS;

export function isActionName(name: string): name is ActionName {
  return Object.hasOwn(ACTIONS, name);
}

/** The spec of an action; an unknown name (a caller outside the type system) needs admin and is not audited. */
export function actionSpec(name: string): ActionSpec {
  return isActionName(name) ? ACTIONS[name] : { role: "admin", entity: null, target: null, versioned: false };
}

export function roleForAction(action: string): Role {
  return actionSpec(action).role;
}

export function mayPerform(role: Role, action: string): boolean {
  return atLeast(role, roleForAction(action));
}
