"use client";

import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { commitRunAction, rerunAction, rerunUnderReleaseAction } from "@/lib/runs/actions";
import { NOVA_RELEASES, releaseProvenance } from "@/lib/scheduler/releases";
import type { ActionResult } from "@/lib/actions/mutation";
import type { CommitOutcome } from "@/lib/runs/commit";
import type { RunMeta } from "@/lib/runs/view";
import { CommitAction } from "@/components/ui/commit-action";

/** A refused action in words: the form's message, then each field's. */
export function failureText(r: Extract<ActionResult, { ok: false }>): string {
  const fields = Object.entries(r.fieldErrors ?? {}).map(([k, v]) => `${k === "_form" ? "" : `${k}: `}${v.join(", ")}`);
  return [r.formError, ...fields].filter(Boolean).join(" ") || "The action failed.";
}

type Committed = NonNullable<RunMeta["committedInstances"]>;

function CommittedList({ at, instances }: { at: string; instances: Committed }) {
  return (
    <div role="status">
      <p className="sc-ok">
        <b>Committed</b> {new Date(at).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}:{" "}
        {instances.length} instance{instances.length === 1 ? "" : "s"} placed.
      </p>
      <ul className="sc-placement" aria-label="Committed instances">
        {instances.map((i) => (
          <li key={i.uuid}>
            {i.name} <code>{i.uuid}</code> on <span className="sc-host">{i.host}</span>
          </li>
        ))}
      </ul>
    </div>
  );
}

/**
 * "Commit placement": creates the instances on the chosen hosts and consumes
 * their resources (one transaction that re-checks capacity; a run commits once).
 */
export function CommitButton({
  meta,
  chosen,
  onCommitted,
}: {
  meta: RunMeta;
  chosen: string[];
  onCommitted?: (o: CommitOutcome) => void;
}) {
  const [done, setDone] = useState<{ at: string; instances: Committed } | null>(
    meta.committedAt ? { at: meta.committedAt, instances: meta.committedInstances ?? [] } : null,
  );
  if (done) return <CommittedList at={done.at} instances={done.instances} />;
  const hosts = [...new Set(chosen)];
  return (
    <CommitAction
      label="Commit placement"
      help={
        <>
          Creates {chosen.length} instance{chosen.length === 1 ? "" : "s"} of {meta.flavorName} on {hosts.join(", ")}{" "}
          and takes there what the flavor asks of Placement (vCPUs or pinned CPUs, RAM, disk, or a vGPU, a bare-metal
          node's class) and of the host (NUMA cells, PCI devices); room is checked again first.
        </>
      }
      run={async () => {
        const r = await commitRunAction(meta.id);
        if (!r.ok) return failureText(r);
        setDone({ at: new Date(r.data.committedAt).toISOString(), instances: r.data.instances });
        onCommitted?.(r.data);
        return null;
      }}
    />
  );
}

type RerunResult = Awaited<ReturnType<typeof rerunAction>>;

/**
 * A re-run that opens the comparison of the stored run (A) with the new one
 * (B) when it succeeds, and says why when it fails.
 */
function useRerunThenCompare() {
  const router = useRouter();
  const [pending, start] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const rerun = (action: () => Promise<RerunResult>) => {
    setError(null);
    start(async () => {
      const r = await action();
      if (r.ok) router.push(`/runs/compare?a=${r.data.previous}&b=${r.data.runId}`);
      else setError(failureText(r));
    });
  };
  return { pending, error, rerun };
}

function RerunError({ error }: { error: string | null }) {
  return error ? (
    <span className="sc-bad" role="alert">
      {error}
    </span>
  ) : null;
}

/** Re-run a stored run against today's cloud and profile, then compare the two. */
export function RerunButton({ runId, label = "Re-run against today's cloud" }: { runId: number; label?: string }) {
  const { pending, error, rerun } = useRerunThenCompare();
  return (
    <span className="sc-actions" style={{ display: "inline-flex" }}>
      <button
        type="button"
        className="sc-btn sc-btn-secondary sc-btn-small"
        disabled={pending}
        aria-busy={pending}
        aria-label={`${label} (run #${runId})`}
        onClick={() => rerun(() => rerunAction(runId))}
      >
        {pending ? "Re-running…" : label}
      </button>
      <RerunError error={error} />
    </span>
  );
}

/** Re-run a stored run's exact scenario under another Nova release, then compare the two. */
export function ReleaseRerunForm({ runId }: { runId: number }) {
  const { pending, error, rerun } = useRerunThenCompare();
  // 2023.2 is the first release whose scheduler behaves differently from Zed's
  const [release, setRelease] = useState<string>("2023.2");
  const id = `release-rerun-${runId}`;
  return (
    <span className="sc-actions" style={{ display: "inline-flex", alignItems: "center", gap: "0.3rem" }}>
      <label htmlFor={id} className="small">
        Re-run under release
      </label>
      <select id={id} value={release} onChange={(e) => setRelease(e.target.value)} disabled={pending}>
        {NOVA_RELEASES.map((r) => (
          <option key={r} value={r}>
            {r} ({releaseProvenance(r)})
          </option>
        ))}
      </select>
      <button
        type="button"
        className="sc-btn sc-btn-secondary sc-btn-small"
        disabled={pending}
        aria-busy={pending}
        onClick={() => rerun(() => rerunUnderReleaseAction(runId, release))}
      >
        {pending ? "Re-running…" : "Re-run and compare"}
      </button>
      <RerunError error={error} />
    </span>
  );
}
