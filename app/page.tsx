import { DataTable, RecordRowHeader } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { CapacityCharts } from "@/components/overview/capacity-charts";
import { LossHeatMap } from "@/components/overview/loss-heat-map";
import { RunwaySection } from "@/components/capacity/runway-section";
import { runwayView } from "@/lib/metrics/runway-view";
import { fmtDate, fmtGb, fmtInt, fmtMb, pct } from "@/components/ui/format";
import { capacityOverview, cloudCounts, headroomOverview, problemHosts, type CapacityRow } from "@/lib/cloud/queries";
import { CLASS_WORDS, type FlavorHeadroom, fullest, NEAR_FULL } from "@/lib/cloud/headroom";
import { prisma } from "@/lib/db";
import { previewHostLosses } from "@/lib/maintenance/preview";
import { listRuns } from "@/lib/runs/queries";
import { storedAgreement } from "@/lib/history/queries";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const metadata: Metadata = { title: "Overview" };
export const dynamic = "force-dynamic";

function CapacityTable({ rows, group, caption }: { rows: CapacityRow[]; group: string; caption: string }) {
  const bareMetal = rows.some((r) => r.bareMetalNodes > 0);
  return (
    <DataTable
      className="capacity-table"
      caption={caption}
      columns={[
        group,
        { label: "Hosts", num: true },
        { label: "vCPU used / total", num: true },
        { label: "RAM used / total", num: true },
        { label: "Disk used / total", num: true },
        ...(bareMetal ? [{ label: "Bare-metal nodes in use", num: true }] : []),
      ]}
    >
      {rows.map((r) => {
        const top = fullest(r);
        const near = top !== null && top.share >= NEAR_FULL;
        return (
          <tr key={r.name} className={near ? "near-full" : undefined}>
            <th scope="row">
              {r.name}
              {near ? (
                <span className="badge-near-full">
                  {" "}
                  near full: {top.resource} {Math.round(top.share * 100)}%
                </span>
              ) : null}
            </th>
            <td className="num">{fmtInt(r.hosts)}</td>
            <td className="num">
              {fmtInt(r.vcpusUsed)} / {fmtInt(r.vcpusCapacity)}{" "}
              <span className="muted">({pct(r.vcpusUsed, r.vcpusCapacity)})</span>
            </td>
            <td className="num">
              {fmtMb(r.memoryMbUsed)} / {fmtMb(r.memoryMbCapacity)}{" "}
              <span className="muted">({pct(r.memoryMbUsed, r.memoryMbCapacity)})</span>
            </td>
            <td className="num">
              {fmtGb(r.localGbUsed)} / {fmtGb(r.localGbCapacity)}{" "}
              <span className="muted">({pct(r.localGbUsed, r.localGbCapacity)})</span>
            </td>
            {bareMetal ? (
              <td className="num">
                {r.bareMetalNodes ? `${fmtInt(r.bareMetalUsed)} / ${fmtInt(r.bareMetalNodes)}` : "—"}
              </td>
            ) : null}
          </tr>
        );
      })}
    </DataTable>
  );
}

function CapacitySection({
  id,
  title,
  group,
  rows,
}: {
  id: string;
  title: string;
  group: string;
  rows: CapacityRow[];
}) {
  return (
    <section aria-labelledby={id} className="capacity-section">
      <h2 id={id}>{title}</h2>
      {rows.length ? (
        <>
          <CapacityCharts rows={rows} group={group.toLowerCase()} />
          <CapacityTable rows={rows} group={group} caption={`${title}: used, total after allocation ratios`} />
        </>
      ) : (
        <p className="muted">None.</p>
      )}
    </section>
  );
}

/** "Am I OK?": the limit and the headroom for the main flavors, and what is near full. */
function Headroom({
  headroom,
  nearFull,
}: {
  headroom: FlavorHeadroom[];
  nearFull: Array<{ what: string; name: string; resource: string; share: number }>;
}) {
  return (
    <section aria-labelledby="headroom-h" className="headroom">
      <h2 id="headroom-h">Headroom</h2>
      {headroom.length ? (
        <ul aria-label="Headroom for the main flavors">
          {headroom.map((h) => (
            <li key={h.flavor}>
              {h.limit ? <strong>{CLASS_WORDS[h.limit]} is the limit</strong> : <strong>No limit met</strong>} for{" "}
              {h.flavor} ({fmtInt(h.instances)} running): {fmtInt(h.more)} more fit; {fmtInt(h.full)} of{" "}
              {fmtInt(h.usable)} enabled hosts cannot take one.
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">No instances yet: nothing to measure headroom against.</p>
      )}
      <p className="muted small">
        By Placement's vCPU, RAM and disk after allocation ratios, on enabled hosts that are up; filters and aggregates
        may allow fewer: a trial or a <Link href="/capacity">capacity fill</Link> says exactly.
      </p>
      {nearFull.length ? (
        <p className="near-full-list">
          <strong>Near full (90 % or more):</strong>{" "}
          {nearFull.map((n) => `${n.what} ${n.name} (${n.resource} ${Math.round(n.share * 100)}%)`).join(", ")}.
        </p>
      ) : (
        <p>No zone or aggregate has a resource at 90 % or more.</p>
      )}
    </section>
  );
}

export default async function OverviewPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const losses = readPageParams("/", await searchParams).losses === "1" ? await previewHostLosses(prisma) : null;
  const [counts, capacity, problems, { runs }, runway, agreement, headroom] = await Promise.all([
    cloudCounts(prisma),
    capacityOverview(prisma),
    problemHosts(prisma, 25),
    listRuns(prisma, { limit: 10 }),
    runwayView(prisma),
    storedAgreement(prisma),
    headroomOverview(prisma),
  ]);
  const nearFull = [
    ...capacity.byZone.map((r) => ({ what: "zone", r })),
    ...capacity.byAggregate.map((r) => ({ what: "aggregate", r })),
  ].flatMap(({ what, r }) => {
    const top = fullest(r);
    return top && top.share >= NEAR_FULL ? [{ what, name: r.name, ...top }] : [];
  });
  const total = capacity.byCell.reduce(
    (a, r) => ({
      vcpusUsed: a.vcpusUsed + r.vcpusUsed,
      vcpusCapacity: a.vcpusCapacity + r.vcpusCapacity,
      memoryMbUsed: a.memoryMbUsed + r.memoryMbUsed,
      memoryMbCapacity: a.memoryMbCapacity + r.memoryMbCapacity,
      localGbUsed: a.localGbUsed + r.localGbUsed,
      localGbCapacity: a.localGbCapacity + r.localGbCapacity,
    }),
    { vcpusUsed: 0, vcpusCapacity: 0, memoryMbUsed: 0, memoryMbCapacity: 0, localGbUsed: 0, localGbCapacity: 0 },
  );
  return (
    <section>
      <h1>Overview</h1>
      <p className="lead">
        The cloud the scheduler sees: capacity after allocation ratios, hosts out of rotation, and the latest scheduling
        runs.
      </p>
      {counts.hosts === 0 ? (
        <p className="empty">
          No hosts yet. Seed the demo cloud with <code>npm run seed</code>.
        </p>
      ) : (
        <Headroom headroom={headroom} nearFull={nearFull} />
      )}
      <ul className="stat-cards" aria-label="Cloud summary">
        <li>
          <Link href="/hosts">
            <strong>{fmtInt(counts.hosts)}</strong> hosts
          </Link>
        </li>
        <UsageCard label="vCPU used" used={total.vcpusUsed} total={total.vcpusCapacity} format={fmtInt} />
        <UsageCard label="RAM used" used={total.memoryMbUsed} total={total.memoryMbCapacity} format={fmtMb} />
        <UsageCard label="disk used" used={total.localGbUsed} total={total.localGbCapacity} format={fmtGb} />
        <li>
          <Link href="/hosts?state=problem">
            <strong>{fmtInt(problems.total)}</strong> hosts out of rotation
          </Link>
        </li>
        <li>
          <Link href="/aggregates">
            <strong>{fmtInt(counts.aggregates)}</strong> aggregates
          </Link>
        </li>
        <li>
          <Link href="/instances">
            <strong>{fmtInt(counts.instances)}</strong> instances
          </Link>
        </li>
        <li>
          <Link href="/runs">
            <strong>{fmtInt(counts.runs)}</strong> scheduling runs
          </Link>
        </li>
        {agreement.map((a) => (
          <li key={a.profile ?? ""}>
            <Link href="/history">
              <strong>{Math.round((100 * a.agreed) / a.compared)} %</strong> predictions agree with Nova (
              {a.profile ?? "no profile"}: {fmtInt(a.agreed)} of {fmtInt(a.compared)} servers)
            </Link>
          </li>
        ))}
      </ul>

      <CapacitySection id="cap-az" title="Capacity by availability zone" group="Zone" rows={capacity.byZone} />
      <RunwaySection view={runway} action="/capacity" compact />
      <CapacitySection id="cap-cell" title="Capacity by cell" group="Cell" rows={capacity.byCell} />
      <CapacitySection id="cap-agg" title="Capacity by aggregate" group="Aggregate" rows={capacity.byAggregate} />

      <section aria-labelledby="loss-h">
        <h2 id="loss-h">Losing a host</h2>
        {losses ? (
          <LossHeatMap sweep={losses} />
        ) : (
          <p>
            <Link href="/?losses=1">Sweep single-host losses</Link>: lose each host in turn, evacuate its instances as
            Nova would, and see per zone what each loss strands.
          </p>
        )}
      </section>

      <div className="grid-2">
        <section aria-labelledby="problems-h">
          <h2 id="problems-h">Hosts disabled or down ({fmtInt(problems.total)})</h2>
          {problems.rows.length ? (
            <>
              <DataTable
                caption={<>Hosts disabled or down, with the reason</>}
                captionClassName="visually-hidden"
                columns={["Host", "State", "Reason"]}
              >
                {problems.rows.map((h) => (
                  <tr key={h.name}>
                    <RecordRowHeader kind="hosts" id={h.name} />
                    <td>
                      <span className={`state state-${h.state.replace(/\s+/g, "-")}`}>{h.state}</span>
                    </td>
                    <td>{h.reason ?? <span className="muted">no reason given</span>}</td>
                  </tr>
                ))}
              </DataTable>
              {problems.total > problems.rows.length ? (
                <p>
                  <Link href="/hosts?state=problem">All {fmtInt(problems.total)} hosts out of rotation →</Link>
                </p>
              ) : null}
            </>
          ) : (
            <p className="muted">Every compute service is up and enabled.</p>
          )}
        </section>
        <section aria-labelledby="runs-h">
          <h2 id="runs-h">Latest scheduling runs</h2>
          {runs.length ? (
            <DataTable
              caption={<>Latest scheduling runs</>}
              captionClassName="visually-hidden"
              columns={["Run", "When", "Flavor × n", "Result"]}
            >
              {runs.map((r) => (
                <tr key={r.id}>
                  <th scope="row">
                    <Link href={`/runs/${r.id}`}>#{r.id}</Link>
                  </th>
                  <td className="small">{fmtDate(r.createdAt)}</td>
                  <td>
                    {r.flavorName} × {r.numInstances}
                    {r.profileName ? <div className="muted small">profile {r.profileName}</div> : null}
                  </td>
                  <td>
                    {r.error ? (
                      <span className="state state-down">{r.error}</span>
                    ) : (
                      <span>{r.chosenHosts.length ? r.chosenHosts.join(", ") : "—"}</span>
                    )}
                  </td>
                </tr>
              ))}
            </DataTable>
          ) : (
            <p className="muted">
              No scheduling runs yet. <Link href="/schedule">Schedule a request</Link> to see one here.
            </p>
          )}
        </section>
      </div>
    </section>
  );
}

/** A summary card: the share used, then used / total in the resource's unit. */
function UsageCard({
  label,
  used,
  total,
  format,
}: {
  label: string;
  used: number;
  total: number;
  format: (n: number) => string;
}) {
  return (
    <li>
      <strong>{pct(used, total)}</strong> {label}
      <span className="muted small">
        {format(used)} / {format(total)}
      </span>
    </li>
  );
}
