"use client";

import { type ReactNode, useState, useTransition } from "react";

/**
 * A commit button with what it will do beside it: busy while the server
 * action runs, and the refusal in words under it. `run` performs the commit
 * and answers null when it went through, else why not.
 */
export function CommitAction({
  label,
  help,
  run,
}: {
  label: string;
  help: ReactNode;
  run: () => Promise<string | null>;
}) {
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  return (
    <div className="sc-actions">
      <button
        type="button"
        className="sc-btn"
        disabled={pending}
        aria-busy={pending}
        onClick={() => {
          setError(null);
          start(async () => {
            const why = await run();
            if (why) setError(why);
          });
        }}
      >
        {pending ? "Committing…" : label}
      </button>
      <span className="sc-help">{help}</span>
      {error && (
        <p className="sc-form-error" role="alert" style={{ flexBasis: "100%" }}>
          {error}
        </p>
      )}
    </div>
  );
}
