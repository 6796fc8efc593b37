"use client";

import { DataTable } from "@/components/ui/table";
import { useId, useState } from "react";
import { fmtCount, fmtMultiplier, fmtNormalized, fmtRaw, fmtSource, fmtWeight, shortWeigher } from "@/lib/runs/format";
import type { MultiplierUse, Page, WeighedRow } from "@/lib/runs/view";
import { PAGE_SIZE } from "@/lib/runs/view";
import { useDebounced } from "@/components/ui/use-debounced";
import { useHostPage } from "./use-run-data";
import { roleLabel } from "./weights-chart";

export function Pager({
  page,
  label,
  onOffset,
  busy,
}: {
  page: Pick<Page<unknown>, "offset" | "limit" | "total"> & { rows: unknown[] };
  label: string;
  onOffset: (o: number) => void;
  busy?: boolean;
}) {
  const { offset, limit, total } = page;
  const from = total ? offset + 1 : 0;
  const to = Math.min(offset + page.rows.length, total);
  return (
    <nav className="sc-pager" aria-label={`${label} pages`}>
      <button
        type="button"
        className="sc-btn sc-btn-secondary sc-btn-small"
        disabled={offset === 0}
        onClick={() => onOffset(Math.max(0, offset - limit))}
      >
        Previous
      </button>
      <span aria-live="polite">
        {label} {fmtCount(from)}–{fmtCount(to)} of {fmtCount(total)}
        {busy ? " (loading…)" : ""}
      </span>
      <button
        type="button"
        className="sc-btn sc-btn-secondary sc-btn-small"
        disabled={offset + limit >= total}
        onClick={() => onOffset(offset + limit)}
      >
        Next
      </button>
    </nav>
  );
}

/** Where the multipliers came from: the profile, or which aggregate (over all survivors). */
export function MultipliersTable({ uses, index }: { uses: MultiplierUse[]; index: number }) {
  if (!uses.length) return null;
  return (
    <div className="sc-table-wrap">
      <DataTable
        label={`Weigher multipliers, instance ${index + 1}`}
        className="sc-table"
        columns={["Weigher", { label: "Multiplier", num: true }, "Source", { label: "Hosts", num: true }]}
      >
        {uses.map((u, i) => (
          <tr key={i}>
            <th scope="row">{u.weigher}</th>
            <td className="num">{fmtMultiplier(u.multiplier)}</td>
            <td>{fmtSource(u.source)}</td>
            <td className="num">{fmtCount(u.hosts)}</td>
          </tr>
        ))}
      </DataTable>
    </div>
  );
}

/** Every survivor, best first, paged (the DOM holds one page). */
export function WeighedTable({
  runId,
  index,
  names,
  drawn,
  initial,
}: {
  runId: number;
  index: number;
  names: string[];
  /** weighers shown as columns (the others add 0 everywhere on the chart) */
  drawn: string[];
  initial: Page<WeighedRow>;
}) {
  const [offset, setOffset] = useState(0);
  const [filter, setFilter] = useState("");
  const q = useDebounced(filter, 200);
  const { data, isFetching, error } = useHostPage("weighed", runId, index, offset, PAGE_SIZE, q, initial);
  const page = data ?? initial;
  const id = useId();
  const cols = drawn.length ? drawn : names;
  return (
    <div>
      <div className="sc-pager">
        <div className="sc-field">
          <label htmlFor={`${id}-filter`}>Filter hosts</label>
          <input
            id={`${id}-filter`}
            type="search"
            value={filter}
            placeholder="host name contains…"
            onChange={(e) => {
              setFilter(e.target.value);
              setOffset(0);
            }}
          />
        </div>
      </div>
      {error ? <p className="sc-bad">Could not load the page: {(error as Error).message}</p> : null}
      <div className="sc-table-wrap">
        <DataTable
          label={`Weighed hosts, instance ${index + 1}`}
          className="sc-table"
          busy={isFetching}
          columns={[
            { label: "Rank", num: true },
            "Host",
            "Role",
            { label: "Weight", num: true },
            ...cols.map((n) => ({ label: shortWeigher(n), num: true, title: n })),
          ]}
        >
          {page.rows.map((r) => (
            <tr
              key={r.host}
              className={r.role === "chosen" ? "sc-row-chosen" : r.role === "alternate" ? "sc-row-alt" : undefined}
            >
              <td className="num">{r.rank}</td>
              <th scope="row" className="sc-host">
                {r.host}
              </th>
              <td>
                {r.role ? (
                  <span className={r.role === "chosen" ? "sc-chosen-tag" : "sc-alt-tag"}>{roleLabel(r)}</span>
                ) : null}
              </td>
              <td className="num">{fmtWeight(r.weight)}</td>
              {cols.map((n) => {
                const b = r.weighers[n];
                if (!b)
                  return (
                    <td key={n} className="num">
                      —
                    </td>
                  );
                return (
                  <td
                    key={n}
                    className="num"
                    title={`${n}: raw ${fmtRaw(b.raw)}, normalized ${fmtNormalized(b.normalized)} × multiplier ${fmtMultiplier(b.multiplier)} (${fmtSource(b.source)}) = ${fmtWeight(b.score)}`}
                  >
                    {fmtWeight(b.score)}
                    {b.source !== "config" ? (
                      <span className="sc-src">
                        ×{fmtMultiplier(b.multiplier)} {fmtSource(b.source)}
                      </span>
                    ) : null}
                  </td>
                );
              })}
            </tr>
          ))}
          {page.rows.length === 0 && (
            <tr>
              <td colSpan={4 + cols.length} className="sc-muted">
                {q ? `No surviving host matches "${q}".` : "No host survived the filters."}
              </td>
            </tr>
          )}
        </DataTable>
      </div>
      <Pager page={page} label="Hosts" onOffset={setOffset} busy={isFetching} />
    </div>
  );
}
