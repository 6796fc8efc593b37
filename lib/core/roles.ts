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
