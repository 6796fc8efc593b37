"use client";

import { FormError } from "@/components/ui/notice";

import { DataTable } from "@/components/ui/table";
/**
 * Beside the weights chart: for each configured multiplier, the range in
 * which the chosen host stays the winner (against the runner-up, and
 * against every survivor) and the value where it flips, plus a control that
 * re-runs the engine on the run's stored snapshot with a multiplier changed.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { getJson } from "@/components/data/api";
import type { Flip, Sensitivity } from "@/lib/runs/sensitivity";
import type { TryOutcome } from "@/lib/runs/sensitivity-run";
import { errorTitle } from "@/lib/runs/error-words";

const fmt = (n: number) => (Number.isInteger(n) ? String(n) : Number(n.toPrecision(4)).toString());

/** A value just past a flip, so the re-run shows the other host winning. */
function beyond(f: Flip, side: "low" | "high"): number {
  const step = Math.max(Math.abs(f.at) * 0.1, 0.1);
  return Number((side === "high" ? f.at + step : f.at - step).toPrecision(4));
}

export function WeightSensitivity({ runId, index }: { runId: number; index: number }) {
  const [chosenKey, setKey] = useState("");
  const [value, setValue] = useState("");
  const base = useQuery({
    queryKey: ["run", runId, "sensitivity", index],
    queryFn: () => getJson<Sensitivity | null>(`/api/runs/${runId}/sensitivity?index=${index}`),
    staleTime: Infinity,
  });
  const attempt = useMutation({
    mutationFn: ({ k, v }: { k: string; v: string }) =>
      getJson<TryOutcome>(
        `/api/runs/${runId}/sensitivity?index=${index}&key=${encodeURIComponent(k)}&value=${encodeURIComponent(v)}`,
      ),
  });
  const data = base.data;
  const key = chosenKey || data?.weighers[0]?.key || "";
  const tryIt = (k: string, v: string) => attempt.mutate({ k, v });
  const outcome = attempt.data ?? null;
  const busy = attempt.isPending;
  const error = base.error?.message ?? attempt.error?.message ?? null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    tryIt(key, value);
  };

  if (base.isPending) return <p className="sc-muted">Computing weight sensitivity…</p>;
  if (!data) return error ? <p className="sc-bad">{error}</p> : null;

  const range = (w: Sensitivity["weighers"][number], r: { low: Flip | null; high: Flip | null }) =>
    w.unknown
      ? "not known from this run"
      : `${r.low ? fmt(r.low.at) : w.min !== undefined ? `${fmt(w.min)} (least accepted)` : "−∞"} … ${r.high ? fmt(r.high.at) : "+∞"}`;
  const flipButtons = (w: Sensitivity["weighers"][number]) => {
    const out: Array<{ label: string; v: number }> = [];
    for (const side of ["low", "high"] as const) {
      const f = w.all[side];
      if (!f) continue;
      const v = beyond(f, side);
      if (w.min !== undefined && v < w.min) continue;
      out.push({ label: `${side === "low" ? "below" : "above"} ${fmt(f.at)}: ${f.host}`, v });
    }
    return out;
  };

  return (
    <section className="sc-section" aria-labelledby={`sens-h-${index}`}>
      <h4 id={`sens-h-${index}`}>Weight sensitivity</h4>
      <p className="sc-help">
        How far each multiplier can move (others fixed) before <strong>{data.winner}</strong> stops winning. Normalised
        values do not depend on multipliers, so each host&apos;s weight is a line in the multiplier; hosts whose
        multiplier an aggregate overrides do not move.
      </p>
      <DataTable
        label="Weight sensitivity"
        unstyled
        className="sc-table"
        columns={["Multiplier", "Now", <>Beats {data.runnerUp} within</>, "Beats every survivor within", "Flips to"]}
      >
        {data.weighers.map((w) => (
          <tr key={w.key}>
            <th scope="row">
              {w.key}
              {w.overridden ? <span className="sc-muted"> ({w.overridden} hosts overridden by aggregates)</span> : null}
            </th>
            <td>{fmt(w.value)}</td>
            <td>{range(w, w.runnerUp)}</td>
            <td>{range(w, w.all)}</td>
            <td>
              {w.unknown ? (
                <span className="sc-muted">{w.unknown}</span>
              ) : flipButtons(w).length ? (
                flipButtons(w).map((b) => (
                  <button
                    key={b.label}
                    type="button"
                    className="sc-link-btn"
                    onClick={() => {
                      setKey(w.key);
                      setValue(String(b.v));
                      tryIt(w.key, String(b.v));
                    }}
                    aria-label={`Try ${w.key} = ${b.v} (${b.label})`}
                  >
                    {b.label}
                  </button>
                ))
              ) : (
                "never"
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      <form className="sc-form" onSubmit={onSubmit} aria-label="Try a multiplier">
        <label>
          Multiplier
          <select value={key} onChange={(e) => setKey(e.target.value)}>
            {data.weighers.map((w) => (
              <option key={w.key} value={w.key}>
                {w.key}
              </option>
            ))}
          </select>
        </label>{" "}
        <label>
          Value
          <input value={value} onChange={(e) => setValue(e.target.value)} inputMode="decimal" size={8} />
        </label>{" "}
        <button type="submit" className="sc-btn sc-btn-small" disabled={busy || !key}>
          Re-run with this value
        </button>
      </form>
      <FormError error={error} />
      {outcome ? (
        <p role="status" aria-label="Re-run with the multiplier">
          With {outcome.key} = {fmt(outcome.value)}:{" "}
          {outcome.error && outcome.error !== "NoValidHost" ? (
            <>
              {errorTitle(outcome.error).toLowerCase()}
              {outcome.message ? ` (${outcome.message})` : ""}.
            </>
          ) : outcome.chosen === data.winner ? (
            <>
              <strong>{outcome.chosen}</strong> still wins.
            </>
          ) : (
            <>
              the winner flips to <strong>{outcome.chosen ?? "no host"}</strong> (was {data.winner}).
            </>
          )}{" "}
          {outcome.top.length ? (
            <span className="sc-muted">
              Top: {outcome.top.map((t) => `${t.host} ${Number(t.weight.toPrecision(4))}`).join(", ")}
            </span>
          ) : null}
        </p>
      ) : null}
    </section>
  );
}
