import type { ReactNode } from "react";

/**
 * A page's notice after a redirect or about what it shows: "ok" is a status
 * (read politely), "bad" an alert (read at once).
 */
export function Notice({ tone, children }: { tone: "ok" | "bad"; children: ReactNode }) {
  return (
    <p className={`notice ${tone}`} role={tone === "ok" ? "status" : "alert"}>
      {children}
    </p>
  );
}

/** A form's refusal in words, read at once; nothing when there is none. */
export function FormError({ error }: { error: ReactNode }) {
  return error ? (
    <p className="sc-bad" role="alert">
      {error}
    </p>
  ) : null;
}
