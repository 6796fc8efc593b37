/**
 * Why Placement did not return a host: the codes its stage answers, with the
 * words a NoValidHost summary puts after a count. A resource class short of
 * room answers `<CLASS>_SHORT` (VCPU_SHORT, CUSTOM_GPU_SHORT, ...) and
 * carries its own label ("VCPU short").
 */
import type { Reason } from "../plugin";

export const PLACEMENT_REASONS = {
  // compute_status_filter: the COMPUTE_STATUS_DISABLED trait
  DISABLED: "compute service disabled",
  NOT_IN_TENANT_AGGREGATE: "not in an aggregate of the project",
  NOT_IN_AVAILABILITY_ZONE: "not in the requested availability zone",
  NOT_IN_AGGREGATE: "not in a required aggregate",
  ISOLATED_AGGREGATE: "in an aggregate that requires traits the request lacks",
  TRAIT_MISSING: "lacking a required trait",
  TRAIT_FORBIDDEN: "having a forbidden trait",
  RESOURCE_UNIT: "outside a resource's min_unit, max_unit or step_size",
  NOT_FORCED_HOST: "not the forced host",
  GROUP_POLICY: "unable to give each numbered group its own provider",
  GROUP_UNSATISFIED: "no provider for a numbered request group",
  NO_CANDIDATE: "without an allocation candidate in its provider tree",
  PLACEMENT_REFUSED: "refused by Placement",
  NOT_IN_CANDIDATE_LIMIT: "not among the first max_placement_results candidates",
  NOT_A_CANDIDATE: "not a candidate",
} as const;

export type PlacementReasonCode = keyof typeof PLACEMENT_REASONS | `${string}_SHORT`;
export type PlacementReason = Reason<PlacementReasonCode>;
