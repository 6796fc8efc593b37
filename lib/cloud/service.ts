/**
 * Is a nova-compute service up? As Nova's servicegroup API answers
 * (`service_is_up`): a forced-down service is down, whatever its last
 * heartbeat. The one rule behind the snapshot the engine schedules on (its
 * `service.up`), the commit's room check, the hosts list and its filters.
 */
export function serviceIsUp(h: { serviceUp: boolean; forcedDown: boolean }): boolean {
  return h.serviceUp && !h.forcedDown;
}

/** serviceIsUp in SQL, over the ComputeHost row aliased `h`. */
export const SERVICE_IS_UP_SQL = `(h."serviceUp" AND NOT h."forcedDown")`;
