"use client";

import { useEffect, useRef, useState, useTransition, type FormEvent, type ReactNode } from "react";
import { scheduleAction, type ScheduleOutcome } from "@/lib/runs/actions";
import { fmtCount } from "@/lib/runs/format";
import type { ScheduleFormOptions } from "@/lib/runs/queries";
import type { FormValues } from "@/lib/runs/form-values";
import { HINT_FILTERS, MAX_INSTANCES, validateScheduleForm, type ScheduleField } from "@/lib/runs/schemas";
import { ResultView } from "./result-view";
import { errorTitle } from "@/lib/runs/error-words";
import { fmtMb } from "@/components/ui/format";
import type { FieldErrors } from "@/lib/core/errors";

type Errors = FieldErrors;

const HINT_FIELDS = ["same_host", "different_host", "query", "build_near_host_ip", "cidr"] as const;

/**
 * Seconds since it mounted, ticking every 100 ms. Its own component so that
 * the tick re-renders this text only, not the form and the result beside it.
 */
function Elapsed() {
  const [ms, setMs] = useState(0);
  useEffect(() => {
    const t0 = performance.now();
    const timer = setInterval(() => setMs(performance.now() - t0), 100);
    return () => clearInterval(timer);
  }, []);
  return <>{(ms / 1000).toFixed(1)} s</>;
}

export function ScheduleForm({ options, initial }: { options: ScheduleFormOptions; initial: FormValues }) {
  const [values, setValues] = useState<FormValues>(initial);
  const [errors, setErrors] = useState<Errors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<ScheduleOutcome | null>(null);
  const [pending, start] = useTransition();
  const formRef = useRef<HTMLFormElement>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (outcome) resultRef.current?.querySelector<HTMLElement>("h2")?.focus({ preventScroll: false });
  }, [outcome]);

  const hintCount = HINT_FIELDS.filter((k) => values[k].trim()).length;
  const [hintsOpen, setHintsOpen] = useState(hintCount > 0);
  useEffect(() => {
    if (HINT_FIELDS.some((k) => errors[k])) setHintsOpen(true);
  }, [errors]);

  const activeProfile = options.profiles.find((p) => p.active);
  const profile = options.profiles.find((p) => p.name === values.profile) ?? activeProfile;
  const flavor = options.flavors.find((f) => f.name === values.flavor);

  const set = (k: ScheduleField) => (e: { target: { value: string } }) => {
    const v = e.target.value;
    setValues((old) => ({ ...old, [k]: v }));
    if (errors[k]) setErrors(({ [k]: _drop, ...rest }) => rest);
  };

  const focusFirstError = (errs: Errors) => {
    const first = Object.keys(errs)[0];
    if ((HINT_FIELDS as readonly string[]).includes(first)) setHintsOpen(true);
    // after the hints (if closed) have opened
    setTimeout(() => formRef.current?.querySelector<HTMLElement>(`[name="${first}"]`)?.focus(), 0);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    const v = validateScheduleForm(values);
    if (!v.ok) {
      setErrors(v.fieldErrors);
      focusFirstError(v.fieldErrors);
      return;
    }
    setErrors({});
    start(async () => {
      try {
        const r = await scheduleAction(values);
        if (r.ok) {
          setOutcome(r.data);
        } else {
          setErrors(r.fieldErrors);
          setFormError(r.formError ?? (r.fieldErrors._form ? r.fieldErrors._form.join(" ") : null));
          focusFirstError(r.fieldErrors);
        }
      } catch (err) {
        setFormError(`The scheduler failed: ${(err as Error).message}`);
      }
    });
  };

  const field = (
    name: ScheduleField,
    label: string,
    control: (p: Record<string, unknown>) => ReactNode,
    help?: ReactNode,
    wide = false,
  ) => {
    const id = `sched-${name}`;
    const errs = errors[name];
    const hintFilter = HINT_FILTERS[name];
    const hintOff = hintFilter && values[name].trim() && profile && !profile.enabledFilters.includes(hintFilter);
    const describedBy = [help ? `${id}-help` : null, errs ? `${id}-error` : null, hintOff ? `${id}-warn` : null]
      .filter(Boolean)
      .join(" ");
    return (
      <div className={`sc-field${wide ? " sc-grid-wide" : ""}`}>
        <label htmlFor={id}>{label}</label>
        {control({
          id,
          name,
          value: values[name],
          onChange: set(name),
          "aria-invalid": errs ? true : undefined,
          "aria-describedby": describedBy || undefined,
        })}
        {errs && (
          <p className="sc-field-error" id={`${id}-error`}>
            {errs.join(" ")}
          </p>
        )}
        {hintOff && (
          <p className="sc-warn" id={`${id}-warn`}>
            {hintFilter} is not enabled in profile {profile!.name}: this hint has no effect.
          </p>
        )}
        {help && (
          <p className="sc-help" id={`${id}-help`}>
            {help}
          </p>
        )}
      </div>
    );
  };

  return (
    <>
      <form
        ref={formRef}
        className="sc-form sc-panel"
        onSubmit={onSubmit}
        noValidate
        aria-label="Trial scheduling request"
      >
        {formError && (
          <p className="sc-form-error" role="alert">
            {formError}
          </p>
        )}
        <fieldset>
          <legend>Request</legend>
          <div className="sc-grid">
            {field(
              "flavor",
              "Flavor",
              (p) => (
                <select {...p} required>
                  <option value="">Choose a flavor…</option>
                  {options.flavors.map((f) => (
                    <option key={f.name} value={f.name}>
                      {f.name} — {f.vcpus} vCPU, {fmtMb(f.memoryMb)}, {f.diskGb} GB
                    </option>
                  ))}
                </select>
              ),
              flavor && Object.keys(flavor.extraSpecs).length ? (
                <>
                  Extra specs:{" "}
                  {Object.entries(flavor.extraSpecs)
                    .map(([k, v]) => `${k}=${v}`)
                    .join(", ")}
                </>
              ) : flavor ? (
                "No extra specs."
              ) : undefined,
            )}
            {field("image", "Image", (p) => (
              <select {...p}>
                <option value="">(no image)</option>
                {options.images.map((i) => (
                  <option key={i.uuid} value={i.uuid}>
                    {i.name ?? i.uuid}
                    {i.arch ? ` (${i.arch})` : ""}
                  </option>
                ))}
              </select>
            ))}
            {field(
              "num_instances",
              "Number of instances",
              (p) => (
                <input {...p} type="number" inputMode="numeric" min={1} max={MAX_INSTANCES} step={1} required />
              ),
              `1 to ${MAX_INSTANCES}; each instance consumes its host before the next is placed.`,
            )}
            {field("availability_zone", "Availability zone", (p) => (
              <select {...p}>
                <option value="">(any zone)</option>
                {options.availabilityZones.map((z) => (
                  <option key={z} value={z}>
                    {z}
                  </option>
                ))}
              </select>
            ))}
            {field(
              "project_id",
              "Project",
              (p) => (
                <>
                  <input
                    {...p}
                    type="text"
                    list="sched-projects"
                    autoComplete="off"
                    spellCheck={false}
                    placeholder="project id (optional)"
                  />
                  <datalist id="sched-projects">
                    {options.projects.map((x) => (
                      <option key={x} value={x} />
                    ))}
                  </datalist>
                </>
              ),
              "Matters for tenant-isolated aggregates (filter_tenant_id).",
            )}
            {field("server_group", "Server group", (p) => (
              <select {...p}>
                <option value="">(none)</option>
                {options.serverGroups.map((g) => (
                  <option key={g.uuid} value={g.uuid}>
                    {g.name} — {g.policy}, {g.members} member{g.members === 1 ? "" : "s"}
                  </option>
                ))}
              </select>
            ))}
            {field(
              "profile",
              "Scheduler profile",
              (p) => (
                <select {...p}>
                  <option value="">
                    {activeProfile ? `${activeProfile.name} (active)` : "(no profile: Nova defaults)"}
                  </option>
                  {options.profiles
                    .filter((x) => !x.active)
                    .map((x) => (
                      <option key={x.name} value={x.name}>
                        {x.name}
                      </option>
                    ))}
                </select>
              ),
              profile?.description ?? undefined,
            )}
            {options.snapshots.length
              ? field(
                  "as_of",
                  "As of",
                  (p) => (
                    <select {...p}>
                      <option value="">today&apos;s cloud</option>
                      {options.snapshots.map((s) => (
                        <option key={s.id} value={String(s.id)}>
                          {s.label}
                        </option>
                      ))}
                    </select>
                  ),
                  "Schedule on the cloud as it was at a snapshot of its history, under the profile above (such a run is not committed).",
                )
              : null}
          </div>
        </fieldset>
        <details
          className="sc-hints"
          open={hintsOpen}
          onToggle={(e) => setHintsOpen((e.currentTarget as HTMLDetailsElement).open)}
        >
          <summary>
            Scheduler hints
            {hintCount ? ` (${hintCount} set)` : " (none)"}
          </summary>
          <div className="sc-grid">
            {field(
              "same_host",
              "same_host",
              (p) => (
                <textarea {...p} rows={2} spellCheck={false} placeholder="instance uuids, comma or newline separated" />
              ),
              "Only hosts running one of these instances (SameHostFilter).",
            )}
            {field(
              "different_host",
              "different_host",
              (p) => (
                <textarea {...p} rows={2} spellCheck={false} placeholder="instance uuids, comma or newline separated" />
              ),
              "Only hosts running none of these instances (DifferentHostFilter).",
            )}
            {field(
              "query",
              "query (JsonFilter)",
              (p) => (
                <textarea {...p} rows={2} spellCheck={false} placeholder='[">=", "$free_ram_mb", 1024]' />
              ),
              'A JsonFilter expression, e.g. ["and", [">=", "$free_ram_mb", 1024], [">=", "$free_disk_mb", 204800]].',
              true,
            )}
            {field(
              "build_near_host_ip",
              "build_near_host_ip",
              (p) => (
                <input {...p} type="text" spellCheck={false} placeholder="10.1.1.11" />
              ),
              "With cidr: only hosts in that network (SimpleCIDRAffinityFilter).",
            )}
            {field(
              "cidr",
              "cidr",
              (p) => (
                <input {...p} type="text" spellCheck={false} placeholder="/24" />
              ),
              "Prefix length around build_near_host_ip (default /24).",
            )}
          </div>
        </details>
        <div className="sc-actions">
          <button type="submit" className="sc-btn" disabled={pending} aria-busy={pending}>
            {pending ? "Scheduling…" : "Schedule"}
          </button>
          <div className="sc-status" role="status" aria-live="polite">
            {pending ? (
              <>
                <progress aria-label="Scheduling in progress" />
                <span>
                  Scheduling {values.flavor} on {fmtCount(options.hostCount)} hosts… <Elapsed />
                </span>
              </>
            ) : outcome ? (
              <span className={outcome.view.error ? "sc-bad" : "sc-ok"}>
                Run #{outcome.meta.id}:{" "}
                {outcome.view.error
                  ? errorTitle(outcome.view.error)
                  : `placed on ${outcome.view.selections.map((s) => s.host).join(", ")}`}{" "}
                in {outcome.meta.timings ? `${Math.round(outcome.meta.timings.totalMs)} ms` : ""}
              </span>
            ) : (
              <span>
                Runs the scheduler on today&apos;s cloud and stores the run (nothing is placed until you commit).
              </span>
            )}
          </div>
        </div>
      </form>
      <div ref={resultRef} aria-busy={pending}>
        {outcome && <ResultView key={outcome.meta.id} meta={outcome.meta} view={outcome.view} />}
      </div>
    </>
  );
}
