"use client";

import { FormError } from "@/components/ui/notice";

/**
 * What would let a rejected host pass: the run's snapshot tried with small
 * changes (enable the service, add the host to an aggregate, set aggregate
 * metadata); only changes after which the host survives every filter are
 * shown. Apply makes them on the real cloud through the inventory's own
 * actions (the mutation wrapper); Re-run then schedules the request again.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { getJson } from "@/components/data/api";
import { addAggregateHosts, saveAggregateMetadata } from "@/lib/aggregates/actions";
import type { ActionResult } from "@/lib/actions/mutation";
import { setHostService } from "@/lib/hosts/actions";
import { rerunAction } from "@/lib/runs/actions";
import type { WhatIfView } from "@/lib/whatif/run";

type Proposal = WhatIfView["proposals"][number];

function formData(entries: Record<string, string | string[]>): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(entries)) for (const x of Array.isArray(v) ? v : [v]) f.append(k, x);
  return f;
}

function failure(r: ActionResult): string {
  if (r.ok) return "";
  return r.formError ?? Object.values(r.fieldErrors).flat().join(" ");
}

async function applyChange(c: Proposal["changes"][number]): Promise<string | null> {
  let r: ActionResult;
  const version = String(c.version ?? "");
  if (c.kind === "enable-service")
    r = await setHostService(null, formData({ host: c.host, disabled: "false", version }));
  else if (c.kind !== "add-to-aggregate" && c.kind !== "set-metadata") return `${c.text}: made on the cloud, not here`;
  else if (c.aggregateId === undefined) return `aggregate ${c.aggregate} no longer exists`;
  else if (c.kind === "add-to-aggregate")
    r = await addAggregateHosts(
      null,
      formData({ id: String(c.aggregateId), hosts: [c.host], aggregate_name: c.aggregate, version }),
    );
  else
    r = await saveAggregateMetadata(
      null,
      // set, in place: the key's row when it has one (gpu=false becomes gpu=true), else a new row
      formData({
        id: String(c.aggregateId),
        key: c.key,
        original_key: c.key,
        value: c.value,
        aggregate_name: c.aggregate,
        version,
      }),
    );
  return r.ok ? null : `${c.text}: ${failure(r)}`;
}

export function WhatIf({ runId, index }: { runId: number; index: number }) {
  const [host, setHost] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [applied, setAppliedState] = useState<{ host: string; text: string } | null>(null);
  const memo = `whatif-applied:${runId}:${index}`;

  // Applying revalidates the inventory pages, which can re-mount this panel:
  // what was applied is kept for the tab, so the report and the re-run stay.
  useEffect(() => {
    try {
      const kept = window.sessionStorage.getItem(memo);
      if (kept) setAppliedState(JSON.parse(kept));
    } catch {
      // no storage: the report lasts as long as the panel
    }
  }, [memo]);
  const setApplied = (a: { host: string; text: string } | null) => {
    setAppliedState(a);
    try {
      if (a) window.sessionStorage.setItem(memo, JSON.stringify(a));
      else window.sessionStorage.removeItem(memo);
    } catch {
      // as above
    }
  };

  const finding = useMutation({
    mutationFn: (name: string) =>
      getJson<WhatIfView>(`/api/runs/${runId}/whatif?index=${index}&host=${encodeURIComponent(name)}`),
  });
  const view = finding.data ?? null;

  const applying = useMutation({
    mutationFn: async (p: Proposal) => {
      // each change moves its record one version on: a later change to the same record sends the next one
      const done = new Map<string, number>();
      for (const c of p.changes) {
        const record =
          c.kind === "add-to-aggregate" || c.kind === "set-metadata" ? `aggregate:${c.aggregate}` : `host:${c.host}`;
        const before = done.get(record) ?? 0;
        const why = await applyChange({ ...c, version: c.version === undefined ? undefined : c.version + before });
        done.set(record, before + 1);
        if (why) throw new Error(`Not applied: ${why}`);
      }
      return p.changes.map((c) => c.text).join(", then ");
    },
    onSuccess: (text) => setApplied({ host: view?.host ?? host.trim(), text }),
  });

  const rerunning = useMutation({
    mutationFn: async (target: string) => {
      const r = await rerunAction(runId);
      if (!r.ok) throw new Error(failure(r));
      const fate = await getJson<{ passes?: boolean; rejection?: { filter: string; reason: string } }>(
        `/api/runs/${r.data.runId}/whatif?index=${index}&fate=1&host=${encodeURIComponent(target)}`,
      );
      return {
        runId: r.data.runId,
        passes: !!fate.passes,
        text: fate.passes
          ? `${target} passes every filter`
          : `${target} is still rejected${fate.rejection ? ` by ${fate.rejection.filter}: ${fate.rejection.reason}` : ""}`,
      };
    },
  });
  const rerun = rerunning.data ?? null;

  const busy = finding.isPending || applying.isPending || rerunning.isPending;
  const error = problem ?? finding.error?.message ?? applying.error?.message ?? rerunning.error?.message ?? null;

  const find = (e: FormEvent) => {
    e.preventDefault();
    setProblem(null);
    applying.reset();
    rerunning.reset();
    setApplied(null);
    if (!host.trim()) {
      finding.reset();
      setProblem("host: name a host of the run");
      return;
    }
    finding.mutate(host.trim());
  };

  const apply = (p: Proposal) => {
    const text = p.changes.map((c) => c.text).join(", then ");
    if (!window.confirm(`Change the real cloud: ${text}? Every later request sees this change; it is audited.`)) return;
    setProblem(null);
    rerunning.reset();
    applying.mutate(p);
  };

  const runAgain = () => {
    const target = view?.host ?? applied?.host;
    if (!target) return;
    setProblem(null);
    rerunning.mutate(target);
  };

  return (
    <section className="sc-section" aria-labelledby={`whatif-h-${index}`}>
      <h4 id={`whatif-h-${index}`}>What would let a host pass</h4>
      <form className="sc-form" onSubmit={find} aria-label="What would let a host pass">
        <label>
          Rejected host
          <input value={host} onChange={(e) => setHost(e.target.value)} size={18} />
        </label>{" "}
        <button type="submit" className="sc-btn sc-btn-small" disabled={busy}>
          Find changes
        </button>
      </form>
      <FormError error={error} />
      {view ? (
        <div role="region" aria-label={`Changes for ${view.host}`}>
          {!view.rejection ? (
            <p>{view.host} was not rejected in this instance.</p>
          ) : (
            <p>
              {view.host} fell out at <strong>{view.rejection.filter}</strong>: {view.rejection.reason}.
            </p>
          )}
          {view.proposals.length ? (
            <ul className="sc-advice">
              {view.proposals.map((p) => {
                const text = p.changes.map((c) => c.text).join(", then ");
                return (
                  <li key={text}>
                    {text}{" "}
                    <span className="sc-muted">(checked: with this change {view.host} survives every filter)</span>{" "}
                    {p.appliable ? (
                      <button
                        type="button"
                        className="sc-btn sc-btn-small"
                        disabled={busy}
                        onClick={() => void apply(p)}
                        aria-label={`Apply: ${text}`}
                      >
                        Apply
                      </button>
                    ) : (
                      <span className="sc-muted">made on the cloud itself (nova.conf, Placement), not from here</span>
                    )}
                  </li>
                );
              })}
            </ul>
          ) : view.rejection ? (
            <div>
              <p className="sc-muted">
                No change to the service, aggregates, allocation ratios or traits lets {view.host} pass. What still
                blocks it:
              </p>
              <ul aria-label={`What still blocks ${view.host}`}>
                {(view.unanswered.length ? view.unanswered : [{ ...view.rejection, after: [] }]).map((u) => (
                  <li key={`${u.filter}:${u.reason}`}>
                    <strong>{u.filter}</strong>: {u.reason}
                    {u.after.length ? ` (after: ${u.after.join(", then ")})` : ""}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      ) : null}
      {applied ? (
        <p role="status" aria-label="Applied change">
          Applied to the cloud: {applied.text} (recorded in the audit log).{" "}
          <button type="button" className="sc-btn sc-btn-small" onClick={() => void runAgain()} disabled={busy}>
            Re-run the request
          </button>
        </p>
      ) : null}
      {rerun ? (
        <p role="status" aria-label="Re-run outcome">
          <a href={`/runs/${rerun.runId}`}>Run #{rerun.runId}</a>: {rerun.text}.
        </p>
      ) : null}
    </section>
  );
}
