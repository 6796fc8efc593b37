"use client";

import { DataTable } from "@/components/ui/table";
import { errorTitle } from "@/lib/runs/error-words";
import Link from "next/link";
import { memo, useId, useRef, useState, type KeyboardEvent, type ReactNode } from "react";
import { fmtCount, fmtMs, fmtStage } from "@/lib/runs/format";
import type { PlacementView, SelectionFit } from "@/lib/runs/fit-view";
import type { InstanceDetail, InstanceSummary, RunMeta, RunView } from "@/lib/runs/view";
import { FILTERS_ONLY } from "@/lib/catalog/placement-options";
import { FunnelChart } from "./funnel-chart";
import { CommitButton, ReleaseRerunForm, RerunButton } from "./run-buttons";
import { useInstanceDetail } from "./use-run-data";
import { MultipliersTable, WeighedTable } from "./weighed-table";
import { WeightSensitivity } from "./weight-sensitivity";
import { WhatIf } from "./what-if";
import { effectiveWeighers, WeightsChart } from "./weights-chart";
import { RejectedTable, WhyNotSearch } from "./why-not";

function FunnelTable({ summary }: { summary: InstanceSummary }) {
  return (
    <div className="sc-table-wrap">
      <DataTable
        label={`Funnel, instance ${summary.index + 1}`}
        className="sc-table"
        columns={[
          "Stage",
          { label: "In", num: true },
          { label: "Out", num: true },
          { label: "Removed", num: true },
          "Most common reasons",
        ]}
      >
        {summary.funnel.map((f, i) => (
          <tr key={i} className={f.out === 0 ? "sc-row-bad" : undefined}>
            <th scope="row">{fmtStage(f.filter)}</th>
            <td className="num">{fmtCount(f.in)}</td>
            <td className="num">{fmtCount(f.out)}</td>
            <td className="num">{fmtCount(f.removed)}</td>
            <td className="sc-reason">
              {f.reasons.map((r) => `${r.reason} × ${fmtCount(r.count)}`).join("; ")}
              {f.otherReasons > 0 ? `${f.reasons.length ? "; " : ""}other reasons × ${fmtCount(f.otherReasons)}` : ""}
            </td>
          </tr>
        ))}
        {summary.funnel.length === 0 && (
          <tr>
            <td colSpan={5} className="sc-muted">
              No filter ran at this instance
              {summary.index > 0 ? " (filters that run once per request only run for the first instance)" : ""}.
            </td>
          </tr>
        )}
      </DataTable>
    </div>
  );
}

/** A result computed on a profile without Placement says so beside its funnel. */
export function FiltersOnlyNote() {
  return (
    <p className="notice" role="note">
      Computed {FILTERS_ONLY}.
    </p>
  );
}

function InstancePanel({
  runId,
  summary,
  detail0,
  filtersOnly,
}: {
  runId: number;
  summary: InstanceSummary;
  detail0: InstanceDetail | null;
  filtersOnly: boolean;
}) {
  const { data: detail, isLoading, error } = useInstanceDetail(runId, summary.index, detail0);
  const n = summary.index + 1;
  return (
    <div className="sc-section">
      <h3>Funnel</h3>
      {filtersOnly ? <FiltersOnlyNote /> : null}
      <p className="sc-help">
        {fmtCount(summary.hostsIn)} hosts entered, {fmtCount(summary.survivors)} survived every filter.
      </p>
      <FunnelChart summary={summary} />
      <FunnelTable summary={summary} />

      <h3>Weights</h3>
      {isLoading && <p className="sc-muted">Loading the weights of instance {n}…</p>}
      {error && (
        <p className="sc-bad">
          Could not load instance {n}: {(error as Error).message}
        </p>
      )}
      {detail && detail.chart.length === 0 && (
        <p className="sc-muted">No host survived the filters: nothing was weighed.</p>
      )}
      {detail && detail.chart.length > 0 && detail.weigherNames.length === 0 && (
        <p className="sc-muted">Only one host survived: Nova does not weigh a single host (weight 0).</p>
      )}
      {detail && detail.chart.length > 0 && (
        <WeightsSection runId={runId} detail={detail} survivors={summary.survivors} />
      )}

      <h3>Hosts removed</h3>
      {detail ? <RejectedTable runId={runId} index={summary.index} initial={detail.whyNot} /> : null}
      {detail && detail.whyNot.total > 0 ? <WhatIf runId={runId} index={summary.index} /> : null}
    </div>
  );
}

function WeightsSection({ runId, detail, survivors }: { runId: number; detail: InstanceDetail; survivors: number }) {
  const { drawn } = effectiveWeighers(detail.weigherNames, detail.chart);
  const extra = detail.chart.length - Math.min(25, survivors);
  return (
    <>
      {detail.weigherNames.length > 0 && (
        <>
          <p className="sc-help">
            {survivors > detail.chart.length || extra > 0
              ? `The top ${Math.min(25, survivors)} of ${fmtCount(survivors)} survivors${extra > 0 ? `, plus ${extra} alternate${extra === 1 ? "" : "s"} ranked lower` : ""}; the table below lists them all.`
              : `All ${fmtCount(survivors)} survivors.`}
          </p>
          <WeightsChart rows={detail.chart} names={detail.weigherNames} index={detail.index} />
          <h4 className="sc-visually-hidden">Multipliers</h4>
          <MultipliersTable uses={detail.multipliers} index={detail.index} />
          {detail.chart.length > 1 ? <WeightSensitivity runId={runId} index={detail.index} /> : null}
        </>
      )}
      <div style={{ marginTop: "0.75rem" }}>
        <WeighedTable
          runId={runId}
          index={detail.index}
          names={detail.weigherNames}
          drawn={drawn}
          initial={detail.table}
        />
      </div>
    </>
  );
}

/** Tabs (arrow keys move between them) for up to 12 instances, else a select. */
function InstanceSelector({
  count,
  value,
  onChange,
  baseId,
}: {
  count: number;
  value: number;
  onChange: (i: number) => void;
  baseId: string;
}) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  if (count > 12) {
    return (
      <div className="sc-field" style={{ maxWidth: "16rem", marginTop: "1rem" }}>
        <label htmlFor={`${baseId}-sel`}>Instance</label>
        <select id={`${baseId}-sel`} value={value} onChange={(e) => onChange(Number(e.target.value))}>
          {Array.from({ length: count }, (_, i) => (
            <option key={i} value={i}>
              Instance {i + 1}
            </option>
          ))}
        </select>
      </div>
    );
  }
  const onKey = (e: KeyboardEvent<HTMLButtonElement>, i: number) => {
    let next = i;
    if (e.key === "ArrowRight") next = (i + 1) % count;
    else if (e.key === "ArrowLeft") next = (i - 1 + count) % count;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = count - 1;
    else return;
    e.preventDefault();
    onChange(next);
    refs.current[next]?.focus();
  };
  return (
    <div role="tablist" aria-label="Instances" className="sc-tabs">
      {Array.from({ length: count }, (_, i) => (
        <button
          key={i}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`${baseId}-tab-${i}`}
          aria-selected={i === value}
          aria-controls={`${baseId}-panel`}
          tabIndex={i === value ? 0 : -1}
          className="sc-tab"
          onClick={() => onChange(i)}
          onKeyDown={(e) => onKey(e, i)}
        >
          Instance {i + 1}
        </button>
      ))}
    </div>
  );
}

/** The NUMA cells and PCI devices Nova fitted for one instance on its chosen host. */
function FitDetails({ fit, many }: { fit: SelectionFit; many: boolean }) {
  if (fit.numa === undefined && fit.pci === undefined) return null;
  const who = `${many ? `instance ${fit.index + 1} on ` : ""}${fit.host}`;
  return (
    <div className="sc-fit">
      {fit.numa === null ? (
        <p className="sc-muted">No NUMA fit on {fit.host}: the host reports no NUMA topology or none fitted.</p>
      ) : fit.numa ? (
        <DataTable
          label={`NUMA fit of ${who}`}
          className="compact-table numa-fit"
          columns={[
            "Guest cell",
            "Host cell",
            "Shared vCPUs",
            "Pinned vCPU → host CPU",
            "Page size",
            { label: "Memory", num: true },
          ]}
        >
          {fit.numa.map((c) => (
            <tr key={c.guestCell}>
              <th scope="row">{c.guestCell}</th>
              <td>{c.hostCell}</td>
              <td>{c.sharedVcpus.length ? c.sharedVcpus.join(", ") : "—"}</td>
              <td>
                {c.pinning.length ? c.pinning.map((p) => `${p.vcpu}→${p.pcpu}`).join(", ") : "—"}
                {c.emulatorCpus ? ` (emulator threads: CPU ${c.emulatorCpus.join(", ")})` : ""}
              </td>
              <td>{c.pageSize ?? "not asked"}</td>
              <td className="num">{c.memoryMb} MiB</td>
            </tr>
          ))}
        </DataTable>
      ) : null}
      {fit.pci?.length ? (
        <ul className="plain small" aria-label={`PCI devices taken by ${who}`}>
          {fit.pci.map((p) => (
            <li key={`${p.device}-${p.numaNode}-${p.deviceType}`}>{p.text}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/** The Placement path: query, candidates matched and returned, hosts kept out by the limit, claims. */
function PlacementPanel({ meta, placement }: { meta: RunMeta; placement: PlacementView }) {
  return (
    <section className="sc-panel" aria-labelledby={`run-${meta.id}-placement`}>
      <h3 id={`run-${meta.id}-placement`} style={{ marginTop: 0 }}>
        Placement (allocation candidates)
      </h3>
      <p role="note" aria-label="Placement summary">
        {placement.explanation}
      </p>
      <dl className="facts">
        <dt>Hosts in the cloud</dt>
        <dd>{placement.hostsIn === null ? "—" : fmtCount(placement.hostsIn)}</dd>
        <dt>Returned by Placement</dt>
        <dd>{placement.hostsReturned === null ? "—" : fmtCount(placement.hostsReturned)}</dd>
        <dt>Matched / returned candidates</dt>
        <dd>
          {placement.matched === null ? "—" : fmtCount(placement.matched)} /{" "}
          {placement.candidates === null ? "—" : fmtCount(placement.candidates)}
        </dd>
        <dt>Never considered (max_placement_results)</dt>
        <dd>{fmtCount(placement.cutByLimit)}</dd>
      </dl>
      {placement.orderDependent ? (
        <p className="small" role="note">
          Not simulated exactly: real Placement may answer this query differently from one run to the next. Where
          request groups take from the same provider, it adds their amounts into objects that several candidate
          combinations share, in the order of a Python set; this is one of its answers.
        </p>
      ) : null}
      {placement.query !== null ? (
        <>
          <h4 style={{ margin: "0.5rem 0 0" }}>GET /allocation_candidates</h4>
          <table className="data-table compact-table" aria-label="Placement query">
            <tbody>
              {placement.params.map((p, i) => (
                <tr key={i}>
                  <th scope="row">
                    <code>{p.key}</code>
                  </th>
                  <td>
                    <code>{p.value}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {placement.fallbackQuery ? (
            <p className="small">
              Asked again with VCPU instead of PCPU: <code>{placement.fallbackQuery}</code>
            </p>
          ) : null}
        </>
      ) : null}
      {placement.requestFilters.length ? (
        <>
          <h4 style={{ margin: "0.5rem 0 0" }}>Request filters</h4>
          <ul className="plain small" aria-label="Request filters">
            {placement.requestFilters.map((f) => (
              <li key={f.name}>
                <code>{f.name}</code>: {f.effect ?? "no effect (option off or nothing to add)"}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {placement.claims.length ? (
        <ol className="plain small" aria-label="Placement claims">
          {placement.claims.map((c) => (
            <li key={c.index}>
              Instance {c.index + 1}: {c.claimed ? `claimed on ${c.claimed}` : "no claim succeeded"}
              {c.tried.length ? ` (claims failed on ${c.tried.join(", ")})` : ""}
            </li>
          ))}
        </ol>
      ) : null}
    </section>
  );
}

/** Where a run's chosen hosts are committed: a boot here; a move on its instance's page (`commit` given there). */
function CommitSlot({
  meta,
  chosen,
  commit,
}: {
  meta: RunMeta;
  chosen: string[];
  commit?: (chosen: string[]) => ReactNode;
}) {
  if (commit) return <>{commit(chosen)}</>;
  const uuid = meta.request.instance?.uuid;
  if (meta.request.operation && uuid)
    return (
      <p className="sc-help">
        A move is committed from its instance&apos;s page:{" "}
        <Link href={`/instances/${encodeURIComponent(uuid)}`}>instance {uuid}</Link>.
      </p>
    );
  return <CommitButton meta={meta} chosen={chosen} />;
}

function Outcome({ meta, view, commit }: { meta: RunMeta; view: RunView; commit?: (chosen: string[]) => ReactNode }) {
  if (view.error && view.diagnosis) {
    const d = view.diagnosis;
    return (
      <section className="sc-panel sc-outcome-bad" aria-labelledby={`run-${meta.id}-outcome`}>
        <h3 id={`run-${meta.id}-outcome`} className="sc-bad" style={{ marginTop: 0 }}>
          {d.kind === "no-valid-host" ? "No valid host" : errorTitle(d.error)}
        </h3>
        <p className="sc-diagnosis-summary">{d.summary}</p>
        <p>
          <b>{d.explanation}</b>
        </p>
        <h4 style={{ margin: "0.5rem 0 0" }}>What to change</h4>
        <ul className="sc-advice" aria-label="What to change">
          {d.advice.map((a, i) => (
            <li key={i}>{a}</li>
          ))}
        </ul>
      </section>
    );
  }
  const chosen = view.selections.map((s) => s.host);
  return (
    <section className="sc-panel sc-outcome-ok" aria-labelledby={`run-${meta.id}-outcome`}>
      <h3 id={`run-${meta.id}-outcome`} style={{ marginTop: 0 }}>
        Placement
      </h3>
      <ol className="sc-placement" aria-label="Placement">
        {view.selections.map((s, i) => (
          <li key={i}>
            {view.selections.length > 1 ? `Instance ${i + 1}: ` : ""}
            chosen host <b className="sc-host">{s.host}</b>
            {/* a node says something only where it isn't the host's own name (Ironic nodes) */}
            {s.node && s.node !== s.host && !s.node.startsWith(`${s.host}.`) ? (
              <>
                {" "}
                node <span className="sc-host">{s.node}</span>
              </>
            ) : null}
            <span className="sc-chosen-tag">chosen</span>
            {"; "}
            {s.alternates.length ? (
              <>
                alternates{" "}
                {s.alternates.map((a, k) => (
                  <span key={a}>
                    {k > 0 ? ", " : ""}
                    <span className="sc-host">{a}</span>
                  </span>
                ))}
              </>
            ) : (
              <span className="sc-muted">no alternates (no other host in the cell passed)</span>
            )}
          </li>
        ))}
      </ol>
      {view.fits.some((f) => f.numa !== undefined || f.pci !== undefined) ? (
        <section aria-label="NUMA and PCI fit">
          <h4 style={{ margin: "0.5rem 0 0.25rem" }}>
            NUMA and PCI fit of the chosen host{chosen.length > 1 ? "s" : ""}
          </h4>
          {view.fits.map((f) => (
            <FitDetails key={f.index} fit={f} many={view.selections.length > 1} />
          ))}
        </section>
      ) : null}
      <CommitSlot meta={meta} chosen={chosen} commit={commit} />
    </section>
  );
}

const MOVE_WORDS: Record<string, string> = {
  resize: "resize",
  migrate: "cold migration",
  "live-migrate": "live migration",
  evacuate: "evacuation",
  unshelve: "unshelve",
};

function MoveMeta({
  move,
  flavor,
  target,
}: {
  move: NonNullable<RunView["move"]>;
  flavor: string;
  target?: string | null;
}) {
  return (
    <li>
      {MOVE_WORDS[move.operation] ?? move.operation} of instance <code className="small">{move.instance}</code>
      {move.source ? (
        <>
          {" "}
          from <b>{move.source}</b>
        </>
      ) : null}
      {move.operation === "resize" ? (
        <>
          {" "}
          to flavor <b>{flavor}</b>
        </>
      ) : null}
      {target ? (
        <>
          {" "}
          to host <b>{target}</b>
        </>
      ) : null}
    </li>
  );
}

/**
 * A run's result: outcome, why-not search, and per instance the funnel, the
 * weights and the removed hosts. Memoized: the form beside it re-renders on
 * every keystroke and while a new run is pending, and redrawing the previous
 * result's charts then would delay the next request.
 */
export const ResultView = memo(function ResultView({
  meta,
  view,
  showPermalink = true,
  commit,
}: {
  meta: RunMeta;
  view: RunView;
  showPermalink?: boolean;
  /** the commit of a move, offered by its instance's page (a boot's commit is the default) */
  commit?: (chosen: string[]) => ReactNode;
}) {
  const [index, setIndex] = useState(0);
  const baseId = useId();
  const count = view.instances.length;
  const summary = view.instances[Math.min(index, count - 1)];
  const req = meta.request;
  return (
    <div className="sc-result" data-run-id={meta.id}>
      <div className="sc-result-head">
        <h2 id={`run-${meta.id}-title`} tabIndex={-1}>
          Run #{meta.id}
        </h2>
        <div className="sc-links">
          {showPermalink && <Link href={`/runs/${meta.id}`}>Open run #{meta.id}</Link>}
          <a href={`/api/runs/${meta.id}`}>Result JSON</a>
          <a href={`/api/runs/${meta.id}/snapshot`}>Scenario JSON</a>
          <RerunButton runId={meta.id} />
          <ReleaseRerunForm runId={meta.id} />
        </div>
      </div>
      <ul className="sc-meta" aria-label="Run details">
        {view.move ? <MoveMeta move={view.move} flavor={meta.flavorName} target={req.target_host} /> : null}
        <li>
          flavor <b>{meta.flavorName}</b> × {meta.numInstances}
        </li>
        {req.image?.name || req.image?.id ? (
          <li>
            image <b>{req.image.name ?? req.image.id}</b>
          </li>
        ) : null}
        {req.availability_zone ? (
          <li>
            zone <b>{req.availability_zone}</b>
          </li>
        ) : null}
        {req.project_id ? (
          <li>
            project <b>{req.project_id}</b>
          </li>
        ) : null}
        {req.server_group ? (
          <li>
            server group <b>{req.server_group}</b>
          </li>
        ) : null}
        {req.scheduler_hints && Object.keys(req.scheduler_hints).length ? (
          <li>
            hints <b>{Object.keys(req.scheduler_hints).join(", ")}</b>
          </li>
        ) : null}
        <li>
          profile <b>{meta.profileName ?? "(none: Nova defaults)"}</b>
        </li>
        <li>
          Nova release <b>{view.novaRelease}</b>
          {view.novaReleaseProvenance ? <span className="muted"> ({view.novaReleaseProvenance})</span> : null}
        </li>
        {view.conductorProvenance ? (
          <li>
            conductor <span className="muted">({view.conductorProvenance})</span>
          </li>
        ) : null}
        <li>
          <b>{fmtCount(meta.hostCount)}</b> hosts
        </li>
        <li>
          engine <b>{fmtMs(meta.engineMs)}</b>
        </li>
        {meta.timings && (
          <li
            title={`load ${fmtMs(meta.timings.loadMs)}, schedule ${fmtMs(meta.timings.scheduleMs)}, store ${fmtMs(meta.timings.storeMs)}`}
          >
            server total <b>{fmtMs(meta.timings.totalMs)}</b>
          </li>
        )}
        <li>{new Date(meta.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium" })}</li>
      </ul>

      {view.releaseNotes.length ? (
        <ul className="notice" aria-label="Release notes">
          {view.releaseNotes.map((n) => (
            <li key={n}>{n}</li>
          ))}
        </ul>
      ) : null}

      {view.notChecked ? (
        <p className="notice" role="note">
          {view.notChecked}
        </p>
      ) : null}

      <Outcome meta={meta} view={view} commit={commit} />

      {view.placement ? <PlacementPanel meta={meta} placement={view.placement} /> : null}
      {view.filtersOnly && count === 0 ? <FiltersOnlyNote /> : null}

      {count > 0 && (
        <section className="sc-panel" aria-label="Why not host">
          <h3 style={{ marginTop: 0 }}>Why not…?</h3>
          <WhyNotSearch runId={meta.id} instances={count} />
        </section>
      )}

      {count > 0 && summary && (
        <>
          {count > 1 && <InstanceSelector count={count} value={index} onChange={setIndex} baseId={baseId} />}
          <div
            className={count > 1 && count <= 12 ? "sc-tabpanel" : "sc-tabpanel sc-tabpanel-plain"}
            role={count > 1 && count <= 12 ? "tabpanel" : "region"}
            id={`${baseId}-panel`}
            aria-labelledby={count > 1 && count <= 12 ? `${baseId}-tab-${index}` : undefined}
            aria-label={count > 1 && count <= 12 ? undefined : `Instance ${index + 1}`}
          >
            <InstancePanel
              key={summary.index}
              runId={meta.id}
              summary={summary}
              detail0={view.detail0}
              filtersOnly={view.filtersOnly}
            />
          </div>
        </>
      )}
    </div>
  );
});
