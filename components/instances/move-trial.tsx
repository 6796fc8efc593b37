"use client";

import { useRouter } from "next/navigation";
import { type FormEvent, useState, useTransition } from "react";
import { ResultView } from "@/components/schedule/result-view";
import { failureText } from "@/components/schedule/run-buttons";
import type { PageMoveOperation } from "@/lib/cloud/form-schemas";
import { commitMoveAction } from "@/lib/instances/actions";
import type { MoveOutcome } from "@/lib/instances/move";
import { type ScheduleOutcome, trialMoveAction } from "@/lib/runs/actions";
import { CommitAction } from "@/components/ui/commit-action";
import { controlAria } from "@/components/forms/form-kit";
import type { FieldErrors } from "@/lib/core/errors";

const OPERATIONS: Array<{ value: PageMoveOperation; label: string }> = [
  { value: "resize", label: "Resize (to a new flavor)" },
  { value: "migrate", label: "Migrate (cold)" },
  { value: "live-migrate", label: "Live-migrate" },
  { value: "evacuate", label: "Evacuate (its host is down)" },
];

type Errors = FieldErrors;

interface Trialled {
  operation: PageMoveOperation;
  flavor: string;
  target_host: string;
  outcome: ScheduleOutcome;
}

/** "Commit": the move scheduled again on today's cloud; moved only if Nova still picks the host shown. */
function CommitMove({
  instance,
  trial,
  chosen,
}: {
  instance: { id: number; uuid: string; version: number };
  trial: Trialled;
  chosen: string;
}) {
  const router = useRouter();
  const [done, setDone] = useState<MoveOutcome | null>(null);
  if (done)
    return (
      <p className="sc-ok" role="status">
        <b>Moved</b>: instance {done.uuid} is now on <span className="sc-host">{done.to}</span>
        {done.node ? ` (node ${done.node})` : ""} with flavor {done.flavor} (was on {done.from}).
      </p>
    );
  return (
    <CommitAction
      label="Commit move"
      help={
        <>
          Moves the instance to {chosen} in the database: everything it holds (vCPUs or pinned CPUs, RAM, disk, vGPUs,
          NUMA cells, PCI devices) leaves its host for {chosen} (the move is scheduled again first, and must still
          choose {chosen}).
        </>
      }
      run={async () => {
        const r = await commitMoveAction({
          id: String(instance.id),
          version: instance.version,
          uuid: instance.uuid,
          operation: trial.operation,
          flavor: trial.flavor,
          target_host: trial.target_host,
          destination: chosen,
        });
        if (!r.ok) return failureText(r);
        setDone(r.data);
        router.refresh();
        return null;
      }}
    />
  );
}

/**
 * Trial a move of the instance on today's cloud, shown as a boot trial is
 * (funnel, weights, why not, what would let a host pass), then commit it.
 */
export function MoveTrial({
  instance,
  flavors,
}: {
  instance: { id: number; uuid: string; version: number; flavor: string };
  flavors: Array<{ name: string; text: string }>;
}) {
  const [operation, setOperation] = useState<PageMoveOperation>("resize");
  // the next flavor up (flavors come smallest first): the usual resize
  const [flavor, setFlavor] = useState(() => {
    const i = flavors.findIndex((f) => f.name === instance.flavor);
    return flavors[i + 1]?.name ?? flavors[0]?.name ?? "";
  });
  const [target, setTarget] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [trial, setTrial] = useState<Trialled | null>(null);
  const [pending, start] = useTransition();
  const resize = operation === "resize";

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const input = {
      uuid: instance.uuid,
      operation,
      flavor: resize ? flavor : "",
      target_host: resize ? "" : target.trim(),
    };
    start(async () => {
      try {
        const r = await trialMoveAction(input);
        if (r.ok) {
          setErrors({});
          setTrial({ ...input, outcome: r.data });
        } else {
          setErrors(r.fieldErrors);
          setFormError(r.formError ?? null);
        }
      } catch (err) {
        setFormError(`The scheduler failed: ${(err as Error).message}`);
      }
    });
  };

  const fieldError = (name: string) =>
    errors[name] ? (
      <p className="sc-field-error" id={`move-${name}-error`}>
        {errors[name].join(" ")}
      </p>
    ) : null;
  const otherErrors = Object.entries(errors)
    .filter(([k]) => k !== "flavor" && k !== "target_host")
    .flatMap(([, v]) => v);

  return (
    <section aria-labelledby="move-h">
      <h2 id="move-h">Trial a move</h2>
      <form className="sc-form sc-panel" onSubmit={onSubmit} noValidate aria-label="Trial a move">
        {formError || otherErrors.length ? (
          <p className="sc-form-error" role="alert">
            {[formError, ...otherErrors].filter(Boolean).join(" ")}
          </p>
        ) : null}
        <div className="sc-grid">
          <div className="sc-field">
            <label htmlFor="move-operation">Move</label>
            <select
              id="move-operation"
              name="operation"
              value={operation}
              onChange={(e) => setOperation(e.target.value as PageMoveOperation)}
            >
              {OPERATIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          {resize ? (
            <div className="sc-field">
              <label htmlFor="move-flavor">New flavor</label>
              <select
                id="move-flavor"
                name="flavor"
                value={flavor}
                onChange={(e) => setFlavor(e.target.value)}
                {...controlAria(errors.flavor, "move-flavor-error")}
              >
                {flavors.map((f) => (
                  <option key={f.name} value={f.name}>
                    {f.text}
                    {f.name === instance.flavor ? " (current)" : ""}
                  </option>
                ))}
              </select>
              {fieldError("flavor")}
            </div>
          ) : (
            <div className="sc-field">
              <label htmlFor="move-target">Target host</label>
              <input
                id="move-target"
                name="target_host"
                value={target}
                onChange={(e) => setTarget(e.target.value)}
                autoComplete="off"
                {...controlAria(errors.target_host, "move-target_host-error", "move-target-help")}
              />
              <p className="sc-help" id="move-target-help">
                Optional: empty lets Nova&apos;s scheduler choose; a host named here is still checked by the filters.
              </p>
              {fieldError("target_host")}
            </div>
          )}
        </div>
        <div className="sc-actions">
          <button type="submit" className="sc-btn" disabled={pending} aria-busy={pending}>
            {pending ? "Scheduling…" : "Trial move"}
          </button>
          <span className="sc-help">
            Scheduled on today&apos;s cloud as Nova Zed would; nothing moves until you commit.
          </span>
        </div>
      </form>
      {trial ? (
        <ResultView
          key={trial.outcome.meta.id}
          meta={trial.outcome.meta}
          view={trial.outcome.view}
          commit={(chosen) => (chosen[0] ? <CommitMove instance={instance} trial={trial} chosen={chosen[0]} /> : null)}
        />
      ) : null}
    </section>
  );
}
