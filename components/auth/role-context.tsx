"use client";

/**
 * The signed-in user's role, for the forms: a button that would be refused
 * for this role is disabled and says which role it needs. Only a courtesy:
 * the server checks the role of every write itself (lib/actions/mutation.ts).
 */
import { createContext, type ReactNode, useContext } from "react";
import { atLeast, type Role } from "@/lib/core/roles";

const RoleContext = createContext<Role | null>(null);

export function RoleProvider({ role, children }: { role: Role | null; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

/**
 * Whether the signed-in user may use a control that needs `needs`, and if
 * not, the words for its title. Nobody signed in (the sign-in page): allowed,
 * the page itself needs no role.
 */
export function useRoleAllows(needs: Role): { allowed: boolean; why?: string } {
  const role = useContext(RoleContext);
  if (!role || atLeast(role, needs)) return { allowed: true };
  return { allowed: false, why: `Needs the ${needs} role or higher; you are signed in as a ${role}.` };
}

/** True for a viewer: the forms' fields are read-only (nothing a viewer sends may change the cloud). */
export function useReadOnlyForViewer(): boolean {
  return useContext(RoleContext) === "viewer";
}
