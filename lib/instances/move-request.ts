/**
 * A move of a stored instance in the scenario format (SCENARIO.md "Moves").
 * Pure: the database rows are read by lib/instances/move.ts.
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
