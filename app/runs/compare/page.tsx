import { DataTable } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { prisma } from "@/lib/db";
import { loadRun } from "@/lib/runs/cache";
import { compareResults, type InstanceComparison, releaseDifferences, type Verdict } from "@/lib/runs/compare";
import { fmtCount, fmtStage, fmtWeight } from "@/lib/runs/format";
import { getRun, type RunRecord } from "@/lib/runs/queries";
import "@/components/schedule/schedule.css";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";
import { errorTitle } from "@/lib/runs/error-words";

export const metadata: Metadata = { title: "Compare runs" };
export const dynamic = "force-dynamic";

/** Rows shown per list (the rest are counted). */
const SHOW = 100;
/** Instances shown in full. */
const SHOW_INSTANCES = 10;

function verdictText(v: Verdict): string {
  if (v.kind === "passed") return `passed (rank ${v.rank})`;
  if (v.kind === "rejected") return `rejected by ${fmtStage(v.filter)}${v.reason ? `: ${v.reason}` : ""}`;
  return "not considered";
}

function Hosts({ list }: { list: string[] }) {
  if (!list.length) return <span className="sc-muted">none</span>;
  return <span className="sc-host">{list.join(", ")}</span>;
}

function RunCard({ label, run }: { label: string; run: RunRecord }) {
  return (
    <div className="sc-panel" style={{ margin: 0 }}>
      <h2 style={{ marginTop: 0 }}>
        {label}: <Link href={`/runs/${run.id}`}>run #{run.id}</Link>
      </h2>
      <ul className="sc-meta">
        <li>
          flavor <b>{run.flavorName}</b> × {run.numInstances}
        </li>
        <li>
          profile <b>{run.profileName ?? "none"}</b>
        </li>
        <li>
          Nova release <b>{run.config.nova_release ?? "zed"}</b>
        </li>
        <li>
          <b>{fmtCount(run.hostCount)}</b> hosts
        </li>
        <li>
          {run.createdAt.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC
        </li>
      </ul>
      <p style={{ marginBottom: 0 }}>
        {run.error ? (
          <span className="sc-bad">{errorTitle(run.error)}</span>
        ) : (
          <>
            chosen <Hosts list={[...new Set(run.chosenHosts)]} />
          </>
        )}
      </p>
    </div>
  );
}

function Moved({ moved }: { moved: number | null }) {
  if (moved === null) return <span className="sc-muted">—</span>;
  if (moved > 0) return <span className="sc-up">▲ {moved}</span>;
  return <span className="sc-down">▼ {-moved}</span>;
}

function InstanceDiff({ c, multi }: { c: InstanceComparison; multi: boolean }) {
  const n = c.index + 1;
  const suffix = multi ? `, instance ${n}` : "";
  return (
    <section className="sc-panel" aria-label={multi ? `Instance ${n}` : "Differences"}>
      {multi && <h2 style={{ marginTop: 0 }}>Instance {n}</h2>}
      <h3 style={{ marginTop: multi ? undefined : 0 }}>Chosen host and alternates</h3>
      <DataTable label={`Placement${suffix}`} className="sc-table" columns={["", "Run A", "Run B", "Change"]}>
        <tr>
          <th scope="row">Chosen</th>
          <td>
            <Hosts list={c.chosenA ? [c.chosenA] : []} />
          </td>
          <td>
            <Hosts list={c.chosenB ? [c.chosenB] : []} />
          </td>
          <td>{c.chosenChanged ? <b className="sc-bad">changed</b> : <span className="sc-muted">same</span>}</td>
        </tr>
        <tr>
          <th scope="row">Alternates</th>
          <td>
            <Hosts list={c.alternatesA} />
          </td>
          <td>
            <Hosts list={c.alternatesB} />
          </td>
          <td>
            {!c.alternatesChanged ? (
              <span className="sc-muted">same</span>
            ) : (
              <>
                {c.alternatesAdded.length > 0 && <div>added {c.alternatesAdded.join(", ")}</div>}
                {c.alternatesRemoved.length > 0 && <div>dropped {c.alternatesRemoved.join(", ")}</div>}
                {!c.alternatesAdded.length && !c.alternatesRemoved.length && <div>reordered</div>}
              </>
            )}
          </td>
        </tr>
      </DataTable>

      <h3>Weighers that moved</h3>
      {c.weigherChanges.length === 0 ? (
        <p className="sc-muted">Every weigher gives the hosts weighed in both runs the same score.</p>
      ) : (
        <ul className="plain" aria-label="Weighers that moved">
          {c.weigherChanges.map((w) => (
            <li key={w.weigher}>
              <b>{w.weigher}</b>{" "}
              {w.kind === "added"
                ? "weighs only in B (new in its release)"
                : w.kind === "removed"
                  ? "weighs only in A"
                  : "scores differently"}
              : {fmtCount(w.hosts)} host{w.hosts === 1 ? "" : "s"}; most on {w.most.host} (
              {w.most.scoreA === null ? "—" : Number(w.most.scoreA.toPrecision(4))} →{" "}
              {w.most.scoreB === null ? "—" : Number(w.most.scoreB.toPrecision(4))})
            </li>
          ))}
        </ul>
      )}

      <h3>Ranking</h3>
      {c.rankChanges.length === 0 ? (
        <p className="sc-muted">No host moved in rank ({fmtCount(c.sameRank)} at the same rank).</p>
      ) : (
        <>
          <p className="sc-help">
            {fmtCount(c.rankChanges.length)} host{c.rankChanges.length === 1 ? "" : "s"} moved, entered or left the
            weighed list; {fmtCount(c.sameRank)} kept their rank. Best placed first.
          </p>
          <div className="sc-table-wrap">
            <DataTable
              label={`Hosts that moved in rank${suffix}`}
              className="sc-table"
              columns={[
                "Host",
                { label: "Rank A", num: true },
                { label: "Rank B", num: true },
                { label: "Moved", num: true },
                { label: "Weight A", num: true },
                { label: "Weight B", num: true },
              ]}
            >
              {c.rankChanges.slice(0, SHOW).map((r) => (
                <tr key={r.host}>
                  <th scope="row" className="sc-host">
                    {r.host}
                  </th>
                  <td className="num">{r.rankA ?? "—"}</td>
                  <td className="num">{r.rankB ?? "—"}</td>
                  <td className="num">
                    <Moved moved={r.moved} />
                  </td>
                  <td className="num">{r.weightA === null ? "—" : fmtWeight(r.weightA)}</td>
                  <td className="num">{r.weightB === null ? "—" : fmtWeight(r.weightB)}</td>
                </tr>
              ))}
            </DataTable>
          </div>
          {c.rankChanges.length > SHOW && (
            <p className="sc-help">… and {fmtCount(c.rankChanges.length - SHOW)} more.</p>
          )}
        </>
      )}

      <h3>Filter verdicts</h3>
      {c.verdictChanges.length === 0 ? (
        <p className="sc-muted">Every filter gave every host the same verdict.</p>
      ) : (
        <>
          <ul aria-label={`Filters that changed their verdict${suffix}`}>
            {c.filterChanges.map((f) => (
              <li key={f.filter}>
                <b>{fmtStage(f.filter)}</b>
                {f.nowRejects.length > 0 && (
                  <>
                    {" "}
                    now rejects {fmtCount(f.nowRejects.length)} host{f.nowRejects.length === 1 ? "" : "s"} (
                    {f.nowRejects.slice(0, 8).join(", ")}
                    {f.nowRejects.length > 8 ? ", …" : ""})
                  </>
                )}
                {f.nowRejects.length > 0 && f.noLongerRejects.length > 0 && ";"}
                {f.noLongerRejects.length > 0 && (
                  <>
                    {" "}
                    no longer rejects {fmtCount(f.noLongerRejects.length)} host
                    {f.noLongerRejects.length === 1 ? "" : "s"} ({f.noLongerRejects.slice(0, 8).join(", ")}
                    {f.noLongerRejects.length > 8 ? ", …" : ""})
                  </>
                )}
              </li>
            ))}
          </ul>
          <div className="sc-table-wrap">
            <DataTable label={`Verdict changes${suffix}`} className="sc-table" columns={["Host", "Run A", "Run B"]}>
              {c.verdictChanges.slice(0, SHOW).map((v) => (
                <tr key={v.host}>
                  <th scope="row" className="sc-host">
                    {v.host}
                  </th>
                  <td className="sc-reason">{verdictText(v.a)}</td>
                  <td className="sc-reason">{verdictText(v.b)}</td>
                </tr>
              ))}
            </DataTable>
          </div>
          {c.verdictChanges.length > SHOW && (
            <p className="sc-help">… and {fmtCount(c.verdictChanges.length - SHOW)} more.</p>
          )}
        </>
      )}

      <h3>Funnel</h3>
      <DataTable
        label={`Funnel of both runs${suffix}`}
        className="sc-table"
        columns={["Stage", { label: "Hosts left in A", num: true }, { label: "Hosts left in B", num: true }]}
      >
        {c.funnel.map((f) => (
          <tr key={f.filter}>
            <th scope="row">{fmtStage(f.filter)}</th>
            <td className="num">{f.outA === null ? "—" : fmtCount(f.outA)}</td>
            <td className="num">{f.outB === null ? "—" : fmtCount(f.outB)}</td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

function PickForm({ a, b, message }: { a?: string; b?: string; message?: string }) {
  return (
    <form action="/runs/compare" method="get" className="sc-form sc-panel">
      {message && <p className="sc-form-error">{message}</p>}
      <div className="sc-grid">
        <div className="sc-field">
          <label htmlFor="cmp-a">Run A</label>
          <input id="cmp-a" name="a" type="number" min={1} defaultValue={a} required />
        </div>
        <div className="sc-field">
          <label htmlFor="cmp-b">Run B</label>
          <input id="cmp-b" name="b" type="number" min={1} defaultValue={b} required />
        </div>
      </div>
      <p>
        <button type="submit" className="sc-btn">
          Compare
        </button>
      </p>
    </form>
  );
}

export default async function ComparePage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = readPageParams("/runs/compare", await searchParams);
  const a = sp.a ?? 0;
  const b = sp.b ?? 0;
  const aText = sp.a === null ? undefined : String(sp.a);
  const bText = sp.b === null ? undefined : String(sp.b);
  const valid = a > 0 && b > 0;
  const header = (
    <>
      <h1>Compare runs</h1>
      <p className="sc-lead">
        Which hosts moved in rank, which filter changed its verdict for which host, and how the chosen host and
        alternates differ. <Link href="/runs">All runs</Link>
      </p>
    </>
  );
  if (!valid) {
    return (
      <section className="sc-page">
        {header}
        <PickForm a={aText} b={bText} message={aText || bText ? "Give two run numbers." : undefined} />
      </section>
    );
  }
  const [runA, runB, resA, resB] = await Promise.all([
    getRun(prisma, a),
    getRun(prisma, b),
    loadRun(prisma, a),
    loadRun(prisma, b),
  ]);
  if (!runA || !runB || !resA || !resB) {
    return (
      <section className="sc-page">
        {header}
        <PickForm a={aText} b={bText} message={`Run #${!runA ? a : b} does not exist.`} />
      </section>
    );
  }
  const cmp = compareResults(resA.result, resB.result);
  const releaseChanges = releaseDifferences(resA.result, resB.result);
  const multi = cmp.instances.length > 1;
  const changedChosen = cmp.instances.filter((c) => c.chosenChanged).length;
  const moved = cmp.instances.reduce((s, c) => s + c.rankChanges.length, 0);
  const verdicts = cmp.instances.reduce((s, c) => s + c.verdictChanges.length, 0);
  return (
    <section className="sc-page">
      {header}
      <div className="sc-compare-grid">
        <RunCard label="A" run={runA} />
        <RunCard label="B" run={runB} />
      </div>
      <p role="status" className="sc-panel" style={{ fontWeight: 600 }}>
        {cmp.identical
          ? "Same outcome: same chosen hosts, alternates, ranks and filter verdicts."
          : `${[
              cmp.errorA !== cmp.errorB ? `outcome ${cmp.errorA ?? "placed"} → ${cmp.errorB ?? "placed"}` : null,
              changedChosen
                ? `chosen host changed for ${changedChosen} of ${cmp.instances.length} instance${cmp.instances.length === 1 ? "" : "s"}`
                : "same chosen hosts",
              `${fmtCount(moved)} rank change${moved === 1 ? "" : "s"}`,
              `${fmtCount(verdicts)} filter verdict change${verdicts === 1 ? "" : "s"}`,
            ]
              .filter(Boolean)
              .join("; ")}.`}{" "}
        <Link href={`/runs/compare?a=${b}&b=${a}`} style={{ fontWeight: 400 }}>
          Swap A and B
        </Link>
      </p>
      {releaseChanges.length ? (
        <section className="sc-panel" aria-labelledby="release-changes">
          <h2 id="release-changes">What the release changed</h2>
          <ul aria-label="Release differences">
            {releaseChanges.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {cmp.instances.slice(0, SHOW_INSTANCES).map((c) => (
        <InstanceDiff key={c.index} c={c} multi={multi} />
      ))}
      {cmp.instances.length > SHOW_INSTANCES && (
        <p className="sc-help">
          The first {SHOW_INSTANCES} of {cmp.instances.length} instances are shown.
        </p>
      )}
    </section>
  );
}
