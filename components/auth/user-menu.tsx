import { signOutAction } from "@/lib/auth/actions";
import type { Actor } from "@/lib/auth/session";

/** Who is signed in, with their role, and the sign-out button. */
export function UserMenu({ actor }: { actor: Actor | null }) {
  if (!actor) return null;
  return (
    <form action={signOutAction} className="user-menu">
      <span>
        Signed in as <strong>{actor.name}</strong> <span className="role-badge">{actor.role}</span>
      </span>
      <button type="submit" className="btn">
        Sign out
      </button>
    </form>
  );
}
