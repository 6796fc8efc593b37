"use client";

import { DataTable } from "@/components/ui/table";
import { useId, useState, type ReactNode } from "react";
import { fmtCount, fmtStage, fmtWeight } from "@/lib/runs/format";
import type { FateStep, HostFate, Page, RejectedRow } from "@/lib/runs/view";
import { PAGE_SIZE } from "@/lib/runs/view";
import { useDebounced } from "@/components/ui/use-debounced";
import { useFates, useHostPage } from "./use-run-data";
import { Pager } from "./weighed-table";

function stepText(s: FateStep, instances: number): ReactNode {
  const at = instances > 1 ? `instance ${s.index + 1}: ` : "";
  if (s.kind === "rejected") {
    return (
      <>
        {at}
        <span className="sc-fate-out">removed by {fmtStage(s.filter)}</span> — {s.reason || "no reason given"}
      </>
    );
  }
  if (s.kind === "weighed") {
    return (
      <>
        {at}
        <span className="sc-fate-in">survived</span>: rank {s.rank} of {fmtCount(s.survivors)}, weight{" "}
        {fmtWeight(s.weight)}
        {s.role === "chosen" ? (
          <span className="sc-chosen-tag">chosen</span>
        ) : s.role === "alternate" ? (
          <span className="sc-alt-tag">alternate</span>
        ) : null}
      </>
    );
  }
  return (
    <>
      {at}
      <span className="sc-muted">not considered (out since an earlier instance, or no host was left)</span>
    </>
  );
}

/** A host's fate, with the steps after its removal folded away. */
function FateItem({ fate, instances }: { fate: HostFate; instances: number }) {
  const firstOut = fate.steps.findIndex((s) => s.kind === "rejected");
  const steps = firstOut >= 0 ? fate.steps.slice(0, firstOut + 1) : fate.steps.filter((s) => s.kind !== "skipped");
  const shown = steps.length ? steps : fate.steps.slice(0, 1);
  return (
    <li>
      <b className="sc-host">{fate.host}</b>
      {shown.length === 1 ? (
        <>: {stepText(shown[0], instances)}</>
      ) : (
        <ul>
          {shown.map((s) => (
            <li key={s.index}>{stepText(s, instances)}</li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** "Why not host…": search any host's fate across the instances. */
export function WhyNotSearch({ runId, instances }: { runId: number; instances: number }) {
  const [text, setText] = useState("");
  const q = useDebounced(text.trim(), 150);
  const { data, isFetching, error } = useFates(runId, q);
  const id = useId();
  return (
    <div className="sc-whynot">
      <div className="sc-field">
        <label htmlFor={`${id}-q`}>Why not host…</label>
        <input
          id={`${id}-q`}
          type="search"
          value={text}
          autoComplete="off"
          placeholder="e.g. cmp-a1-042"
          aria-describedby={`${id}-help`}
          onChange={(e) => setText(e.target.value)}
        />
        <p className="sc-help" id={`${id}-help`}>
          Type part of a host name: which filter removed it (at which instance) and why, or its rank and weight if it
          survived.
        </p>
      </div>
      <div aria-live="polite" role="region" aria-label="Host fates">
        {error ? <p className="sc-bad">{(error as Error).message}</p> : null}
        {q &&
          data &&
          (data.total === 0 ? (
            <p>No host matching &ldquo;{q}&rdquo; entered this run.</p>
          ) : (
            <>
              <ul className="sc-fates" aria-busy={isFetching}>
                {data.hosts.map((f) => (
                  <FateItem key={f.host} fate={f} instances={instances} />
                ))}
              </ul>
              {data.total > data.hosts.length && (
                <p className="sc-help">
                  {fmtCount(data.total - data.hosts.length)} more hosts match; type more of the name.
                </p>
              )}
            </>
          ))}
      </div>
    </div>
  );
}

/** Every host that fell out at one instance, with the stage and the reason (paged). */
export function RejectedTable({ runId, index, initial }: { runId: number; index: number; initial: Page<RejectedRow> }) {
  const [offset, setOffset] = useState(0);
  const { data, isFetching } = useHostPage("rejected", runId, index, offset, PAGE_SIZE, "", initial);
  const page = data ?? initial;
  if (page.total === 0) return <p className="sc-muted">No host was removed at this instance.</p>;
  return (
    <div>
      <div className="sc-table-wrap">
        <DataTable
          label={`Hosts removed, instance ${index + 1}`}
          busy={isFetching}
          className="sc-table"
          columns={["Host", "Removed by", "Reason"]}
        >
          {page.rows.map((r) => (
            <tr key={`${r.step}:${r.host}`}>
              <th scope="row" className="sc-host">
                {r.host}
              </th>
              <td className="sc-nowrap">{fmtStage(r.filter)}</td>
              <td className="sc-reason">{r.reason}</td>
            </tr>
          ))}
        </DataTable>
      </div>
      <Pager page={page} label="Removed hosts" onOffset={setOffset} busy={isFetching} />
    </div>
  );
}
