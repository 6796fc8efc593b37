/**
 * Roles and what each may do. Pure: no Next, Prisma or better-auth imports,
 * so the users CLI, the mutation wrapper, route handlers and tests share it.
 *
 *   admin     every write (users are managed with the users CLI)
 *   operator  trial schedules, commits placements, edits scheduler profiles
 *   viewer    reads and trial schedules; nothing it does changes the cloud
 */
export const ROLES = ["viewer", "operator", "admin"] as const;
export type Role = (typeof ROLES)[number];

const RANK: Record<Role, number> = { viewer: 0, operator: 1, admin: 2 };

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** "role: must be one of admin, operator, viewer (got "x")", or null when valid. */
export function roleProblem(value: unknown): string | null {
  if (isRole(value)) return null;
  return `role: must be one of admin, operator, viewer (got ${JSON.stringify(value ?? "")})`;
}

export function atLeast(role: Role, needed: Role): boolean {
  return RANK[role] >= RANK[needed];
}

/**
 * The least role each mutation action needs, by action name or its prefix
 * (the part before the first dot). Anything not listed needs admin: a new
 * action is closed until someone opens it here.
 */
const ACTION_ROLES: Record<string, Role> = {
  // a trial run is stored (it is history, not a change to the cloud)
  "schedule.run": "viewer",
  "run.rerun": "viewer",
  "run.commit": "operator",
  // a move's trial is stored as a run; its commit moves the instance as a run's commit places one
  "instance.move-trial": "viewer",
  "instance.move": "operator",
  profile: "operator",
  config: "operator",
};

export function roleForAction(action: string): Role {
  return ACTION_ROLES[action] ?? ACTION_ROLES[action.split(".")[0]] ?? "admin";
}

export function mayPerform(role: Role, action: string): boolean {
  return atLeast(role, roleForAction(action));
}
