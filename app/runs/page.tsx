import { DataTable } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { prisma } from "@/lib/db";
import { fmtCount, fmtMs } from "@/lib/runs/format";
import { listRuns } from "@/lib/runs/queries";
import { RerunButton } from "@/components/schedule/run-buttons";
import "@/components/schedule/schedule.css";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";
import { errorTitle } from "@/lib/runs/error-words";

export const metadata: Metadata = { title: "Runs" };
export const dynamic = "force-dynamic";

const when = (d: Date) =>
  `${d.toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "medium", timeZone: "UTC" })} UTC`;

/** The compare form's two picks; at first B is the newest run and A the one before it. */
const COMPARE_SIDES = [
  { side: "A", row: 1 },
  { side: "B", row: 0 },
] as const;

/** "cmp-1 ×2, cmp-2" */
function chosenText(hosts: string[]): string {
  const counts = new Map<string, number>();
  for (const h of hosts) counts.set(h, (counts.get(h) ?? 0) + 1);
  return [...counts].map(([h, n]) => (n > 1 ? `${h} ×${n}` : h)).join(", ");
}

export default async function RunsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  // absent or empty: the newest run
  const { before } = readPageParams("/runs", await searchParams);
  const { runs, total, nextBefore } = await listRuns(prisma, { limit: 50, before: before ?? undefined });
  return (
    <section className="sc-page">
      <h1>Runs</h1>
      <p className="sc-lead">
        Every trial scheduling, newest first ({fmtCount(total)} in all). Open one to see it exactly as it was computed,
        re-run it against today&apos;s cloud and profile, or pick two to compare.
      </p>
      {runs.length === 0 ? (
        <p className="empty">
          No runs yet. <Link href="/schedule">Schedule a request</Link>.
        </p>
      ) : (
        <>
          <form
            id="compare-form"
            action="/runs/compare"
            method="get"
            className="sc-actions"
            style={{ margin: "0.5rem 0" }}
          >
            <button type="submit" className="sc-btn sc-btn-secondary">
              Compare A and B
            </button>
            <span className="sc-help">Pick run A and run B in the table.</span>
          </form>
          <div className="sc-table-wrap">
            <DataTable
              label="Scheduling runs"
              className="sc-table"
              columns={[
                "Run",
                "When",
                "Flavor",
                { label: "Instances", num: true },
                "Profile",
                "Result",
                { label: "Hosts", num: true },
                { label: "Engine", num: true },
                "A",
                "B",
                "Actions",
              ]}
            >
              {runs.map((r, i) => (
                <tr key={r.id}>
                  <th scope="row">
                    <Link href={`/runs/${r.id}`}>#{r.id}</Link>
                  </th>
                  <td className="sc-nowrap">{when(r.createdAt)}</td>
                  <td>
                    {r.operation ? (
                      <>
                        <span className="sc-badge">{r.operation}</span> {r.flavorName}
                      </>
                    ) : (
                      r.flavorName
                    )}
                  </td>
                  <td className="num">{r.numInstances}</td>
                  <td>{r.profileName ?? <span className="sc-muted">none</span>}</td>
                  <td>
                    {r.error ? (
                      <span className="sc-bad">{errorTitle(r.error)}</span>
                    ) : (
                      <span className="sc-host">{chosenText(r.chosenHosts)}</span>
                    )}
                    {r.committedAt ? (
                      <>
                        {" "}
                        <span className="sc-badge sc-ok">committed</span>
                      </>
                    ) : null}
                  </td>
                  <td className="num">{fmtCount(r.hostCount)}</td>
                  <td className="num sc-nowrap">{fmtMs(r.engineMs)}</td>
                  {COMPARE_SIDES.map(({ side, row }) => (
                    <td key={side}>
                      <input
                        type="radio"
                        name={side.toLowerCase()}
                        value={r.id}
                        form="compare-form"
                        defaultChecked={i === row}
                        aria-label={`Run #${r.id} as ${side}`}
                      />
                    </td>
                  ))}
                  <td className="sc-nowrap">
                    <RerunButton runId={r.id} label="Re-run" />{" "}
                    <Link href={`/schedule?from=${r.id}`} aria-label={`Edit the request of run #${r.id}`}>
                      Edit
                    </Link>
                  </td>
                </tr>
              ))}
            </DataTable>
          </div>
          {nextBefore && (
            <p>
              <Link href={`/runs?before=${nextBefore}`}>Older runs</Link>
            </p>
          )}
        </>
      )}
    </section>
  );
}
