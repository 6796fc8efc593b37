/**
 * A stored request back into the form's strings (/schedule?from=ID: "edit
 * and schedule again"). Pure.
 */
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import type { ScheduleField } from "./schemas";

export type FormValues = Record<ScheduleField, string>;

export const EMPTY_FORM: FormValues = {
  flavor: "",
  image: "",
  num_instances: "1",
  availability_zone: "",
  project_id: "",
  server_group: "",
  same_host: "",
  different_host: "",
  query: "",
  build_near_host_ip: "",
  cidr: "",
  profile: "",
  as_of: "",
};

export function requestToFormValues(
  req: ScenarioRequest,
  profileName: string | null,
  activeProfile: string | null,
): Partial<Record<ScheduleField, string>> {
  const hints = req.scheduler_hints ?? {};
  const list = (v: unknown) => (Array.isArray(v) ? v.join("\n") : typeof v === "string" ? v : "");
  const str = (v: unknown) => (v === undefined || v === null ? "" : Array.isArray(v) ? String(v[0] ?? "") : String(v));
  return {
    flavor: req.flavor.name,
    image: req.image?.id ?? "",
    num_instances: String(req.num_instances ?? 1),
    availability_zone: req.availability_zone ?? "",
    project_id: req.project_id ?? "",
    server_group: req.server_group ?? "",
    same_host: list(hints.same_host),
    different_host: list(hints.different_host),
    query: str(hints.query),
    build_near_host_ip: str(hints.build_near_host_ip),
    cidr: str(hints.cidr),
    profile: profileName && profileName !== activeProfile ? profileName : "",
  };
}
