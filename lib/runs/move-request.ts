/**
 * A move of a stored instance in the scenario format (SCENARIO.md "Moves"):
 * a run like a boot, so it lives with the runs (lib/instances, above, commits
 * it). Pure: the database rows are read by move-run.ts.
 */
import type { PageMoveOperation } from "@/lib/cloud/form-schemas";
import type { ScenarioFlavor, ScenarioImage, ScenarioRequest } from "@/lib/scheduler/scenario";

export interface StoredInstance {
  uuid: string;
  /** The compute node row it is on: its service host (scenario `name`) and hypervisor_hostname (`node`). */
  host: { name: string; node: string };
  flavor: ScenarioFlavor;
  image?: ScenarioImage | null;
  projectId?: string | null;
}

export interface MoveChoice {
  operation: PageMoveOperation;
  /** resize: the new flavor */
  flavor?: ScenarioFlavor | null;
  target_host?: string | null;
}

/** The move request Nova's API would receive for `instance` (nothing more: Nova derives the group and ignore_hosts). */
export function moveRequest(instance: StoredInstance, choice: MoveChoice): ScenarioRequest {
  const inst: NonNullable<ScenarioRequest["instance"]> = {
    uuid: instance.uuid,
    host: instance.host.name,
    node: instance.host.node,
    flavor: instance.flavor,
  };
  if (instance.image) inst.image = instance.image;
  const request = { operation: choice.operation, instance: inst } as ScenarioRequest;
  if (choice.operation === "resize" && choice.flavor) request.flavor = choice.flavor;
  if (choice.operation !== "resize" && choice.target_host) request.target_host = choice.target_host;
  if (instance.projectId) request.project_id = instance.projectId;
  return request;
}

/** The flavor a request schedules: a boot's or resize's `flavor`, else the moved instance's own. */
export function scheduledFlavor(request: ScenarioRequest): ScenarioFlavor | undefined {
  return request.flavor ?? request.instance?.flavor;
}

/**
 * What the libvirt driver does with a resize the scheduler placed, on the
 * source host before anything is copied (virt/libvirt/driver.py
 * migrate_disk_and_power_off): a smaller root disk (unless booted from a
 * volume) or a smaller ephemeral disk is refused with ResizeError "Unable
 * to resize disk down.", wrapped in InstanceFaultRollback: the instance
 * stays where it is, the migration ends in error. (A root disk of 0 is
 * refused earlier, by the API: CannotResizeDisk.) null when it goes ahead.
 */
export function resizeRefusedByDriver(request: ScenarioRequest): string | null {
  if (request.operation !== "resize" || !request.flavor || !request.instance) return null;
  const old = request.instance.flavor;
  const now = request.flavor;
  const gb = (v: unknown) => Math.trunc(Number(v ?? 0));
  const rootDown = gb(now.root_gb) < gb(old.root_gb) && !request.is_bfv;
  const ephemeralDown = gb(now.ephemeral_gb) < gb(old.ephemeral_gb);
  if (!rootDown && !ephemeralDown) return null;
  const what = rootDown
    ? `its root disk would shrink from ${gb(old.root_gb)} GB (${old.name}) to ${gb(now.root_gb)} GB (${now.name})`
    : `its ephemeral disk would shrink from ${gb(old.ephemeral_gb)} GB (${old.name}) to ${gb(now.ephemeral_gb)} GB (${now.name})`;
  const src = request.instance.host;
  return (
    `the scheduler places this resize, then the libvirt driver on ${src} refuses it before copying anything ` +
    `(migrate_disk_and_power_off): ResizeError "Unable to resize disk down.": ${what}. ` +
    `The instance stays on ${src} and the migration ends in error; resize to a flavor with at least as much disk.`
  );
}
