import type { Metadata } from "next";
import Link from "next/link";
import { UsageOverTime, type UsagePoint } from "@/components/history/usage-chart";
import { Notice } from "@/components/ui/notice";
import { DataTable } from "@/components/ui/table";
import { fmtInt, fmtMb } from "@/components/ui/format";
import { readPageParams } from "@/lib/api/page-params";
import type { SearchParams } from "@/lib/api/params";
import { prisma } from "@/lib/db";
import type { SnapshotDiff } from "@/lib/history/diff";
import type { PredictionReport } from "@/lib/history/predictions";
import { diffOf, listSnapshots, predictionsOf } from "@/lib/history/queries";
import { readRetention, type SnapshotRow } from "@/lib/history/store";

export const metadata: Metadata = { title: "History" };
export const dynamic = "force-dynamic";

const when = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;
const size = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)} MB` : `${(n / 1e3).toFixed(1)} kB`);
const SHOW = 200;

function snapshotName(s: SnapshotRow) {
  return `#${s.id} · ${when(s.takenAt)} · ${s.source}`;
}

function List({ items }: { items: string[] }) {
  if (!items.length) return <span className="sc-muted">none</span>;
  const shown = items.slice(0, SHOW);
  return (
    <>
      {shown.join(", ")}
      {items.length > SHOW ? ` … and ${fmtInt(items.length - SHOW)} more` : ""}
    </>
  );
}

function ChangeTable({ label, rows }: { label: string; rows: [string, string[]][] }) {
  return (
    <DataTable label={label} columns={["Change", { label: "Count", num: true }, "Which"]}>
      {rows.map(([change, items]) => (
        <tr key={change}>
          <th scope="row">{change}</th>
          <td className="num">{fmtInt(items.length)}</td>
          <td>
            <List items={items} />
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

function DiffView({ a, b, diff }: { a: number; b: number; diff: SnapshotDiff }) {
  const changed = (c: { name: string; fields: string[] }[]) => c.map((x) => `${x.name} (${x.fields.join(", ")})`);
  return (
    <section aria-labelledby="diff-h">
      <h2 id="diff-h">
        Changes from #{a} to #{b}
      </h2>
      <h3>Hosts ({fmtInt(diff.counts.hosts)})</h3>
      <ChangeTable
        label="Host changes"
        rows={[
          ["added", diff.hosts.added],
          ["removed", diff.hosts.removed],
          ["disabled", diff.hosts.disabled],
          ["enabled", diff.hosts.enabled],
          ["changed", changed(diff.hosts.changed)],
        ]}
      />
      <h3>Aggregates ({fmtInt(diff.counts.aggregates)})</h3>
      <ChangeTable
        label="Aggregate changes"
        rows={[
          ["added", diff.aggregates.added],
          ["removed", diff.aggregates.removed],
          ["host added", diff.aggregates.hostsAdded.map((x) => `${x.host} → ${x.aggregate}`)],
          ["host removed", diff.aggregates.hostsRemoved.map((x) => `${x.host} ✕ ${x.aggregate}`)],
          [
            "metadata",
            diff.aggregates.metadata.map(
              (m) => `${m.aggregate}: ${m.key} ${m.before ?? "(unset)"} → ${m.after ?? "(unset)"}`,
            ),
          ],
        ]}
      />
      <h3>
        Flavors, images and server groups ({fmtInt(diff.counts.flavors + diff.counts.images + diff.counts.serverGroups)}
        )
      </h3>
      <ChangeTable
        label="Flavor, image and server group changes"
        rows={[
          ["flavors added", diff.flavors.added],
          ["flavors removed", diff.flavors.removed],
          ["flavors changed", changed(diff.flavors.changed)],
          ["images added", diff.images.added],
          ["images removed", diff.images.removed],
          ["images changed", changed(diff.images.changed)],
          ["server groups added", diff.serverGroups.added],
          ["server groups removed", diff.serverGroups.removed],
          ["server groups changed", changed(diff.serverGroups.changed)],
        ]}
      />
      <h3>Instances ({fmtInt(diff.counts.instances)})</h3>
      <ChangeTable
        label="Instance changes"
        rows={[
          ["created", diff.instances.created.map((i) => `${i.name ?? i.uuid} on ${i.host ?? "no host"}`)],
          ["deleted", diff.instances.deleted],
          ["moved", diff.instances.moved.map((m) => `${m.name ?? m.uuid}: ${m.from} → ${m.to}`)],
        ]}
      />
      <h3>Usage per availability zone</h3>
      <DataTable
        label="Usage per availability zone"
        columns={[
          "Zone",
          { label: "Hosts", num: true },
          { label: "vCPU used", num: true },
          { label: "RAM used", num: true },
          { label: "Disk used (GB)", num: true },
          { label: "Instances", num: true },
        ]}
      >
        {diff.usage.map((u) => (
          <tr key={u.az}>
            <th scope="row">{u.az}</th>
            <td className="num">
              {fmtInt(u.before.hosts)} → {fmtInt(u.after.hosts)}
            </td>
            <td className="num">
              {fmtInt(u.before.vcpus_used)} → {fmtInt(u.after.vcpus_used)}
            </td>
            <td className="num">
              {fmtMb(u.before.memory_mb_used)} → {fmtMb(u.after.memory_mb_used)}
            </td>
            <td className="num">
              {fmtInt(u.before.local_gb_used)} → {fmtInt(u.after.local_gb_used)}
            </td>
            <td className="num">
              {fmtInt(u.before.instances)} → {fmtInt(u.after.instances)}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}

function Predictions({ id, report }: { id: number; report: PredictionReport | null }) {
  return (
    <section aria-labelledby="pred-h">
      <h2 id="pred-h">Predictions for snapshot #{id}</h2>
      {report === null ? (
        <p className="empty">The oldest snapshot: there is no snapshot before it to predict on.</p>
      ) : (
        <>
          <p>
            Every server new in #{id}, beside where Schedscope puts it on #{report.previous} (profile{" "}
            <b>{report.profile ?? "none"}</b>), its request rebuilt from its flavor, image, server group and zone.{" "}
            <strong aria-label="Agreement">
              {report.compared
                ? `Agreement: ${report.agreed} of ${report.compared} (${Math.round((100 * report.agreed) / report.compared)} %)`
                : "No server to compare"}
            </strong>
          </p>
          {report.notes.map((n) => (
            <p key={n} className="sc-muted">
              {n}
            </p>
          ))}
          {report.predictions.length ? (
            <DataTable label="Predictions" columns={["Server", "Flavor", "Predicted", "Nova chose", "Agrees", "Why"]}>
              {report.predictions.map((p) => (
                <tr key={p.uuid}>
                  <th scope="row">{p.name ?? p.uuid}</th>
                  <td>{p.flavor ?? "—"}</td>
                  <td>{p.predicted ?? "no host"}</td>
                  <td>{p.chosen ?? "no host"}</td>
                  <td>{p.agree ? "yes" : "no"}</td>
                  <td>
                    {p.message}
                    {p.probability !== undefined ? ` (probability ${(100 * p.probability).toFixed(0)} %)` : ""}
                  </td>
                </tr>
              ))}
            </DataTable>
          ) : (
            <p className="empty">
              No server was created between #{report.previous} and #{id}.
            </p>
          )}
        </>
      )}
    </section>
  );
}

export default async function HistoryPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const q = readPageParams("/history", await searchParams);
  const [snaps, retention] = await Promise.all([listSnapshots(prisma, { limit: 400 }), readRetention(prisma)]);
  const ids = new Set(snaps.map((s) => s.id));
  const b = q.b ?? snaps[0]?.id ?? null;
  // default: the snapshot just before b
  const bi = snaps.findIndex((s) => s.id === b);
  const a = q.a ?? (bi >= 0 ? (snaps[bi + 1]?.id ?? null) : null);
  const missing = [q.a, q.b].filter((x): x is number => x !== null && !ids.has(x));
  const diff = missing.length === 0 && a !== null && b !== null && a !== b ? await diffOf(prisma, a, b) : null;
  const report = missing.length === 0 && b !== null ? await predictionsOf(prisma, b) : null;
  const points: UsagePoint[] = snaps
    .slice(0, 60)
    .reverse()
    .map((s) => ({
      id: s.id,
      takenAt: s.takenAt.toISOString(),
      zones: Object.fromEntries(
        s.usage.map((u) => [u.az, u.memory_mb ? Number(((100 * u.memory_mb_used) / u.memory_mb).toFixed(1)) : 0]),
      ),
    }));
  return (
    <section>
      <h1>History</h1>
      <p className="lead">
        Every import and every sync is a snapshot of the cloud: when it was taken, where it came from, who started it.
        The newest is the cloud today. Compare any two, and see where Schedscope would have put each new server beside
        where Nova put it. Trials and capacity fills can run as of an older snapshot (their &quot;As of&quot; field).
      </p>
      {missing.length ? (
        <Notice tone="bad">
          Snapshot #{missing[0]} does not exist (it may have been dropped by the retention rule).
        </Notice>
      ) : null}
      {snaps.length === 0 ? (
        <p className="empty">
          No snapshot yet: import a bundle on <Link href="/import">Import</Link> or with{" "}
          <code>npm run -s scenario -- import-openstack</code>.
        </p>
      ) : (
        <>
          <DataTable
            caption="Snapshots"
            columns={[
              "#",
              "Taken",
              "Source",
              "Started by",
              "From",
              { label: "Hosts", num: true },
              { label: "Instances", num: true },
              "Digest",
              { label: "Size", num: true },
              { label: "Stored", num: true, title: "what this snapshot added to the history" },
            ]}
          >
            {snaps.map((s) => (
              <tr key={s.id}>
                <th scope="row">#{s.id}</th>
                <td>{when(s.takenAt)}</td>
                <td>{s.source}</td>
                <td>{s.startedBy}</td>
                <td>{s.label ?? "—"}</td>
                <td className="num">{fmtInt(s.counts.hosts)}</td>
                <td className="num">{fmtInt(s.counts.instances)}</td>
                <td>
                  <code title={s.digest}>{s.digest.slice(0, 12)}</code>
                </td>
                <td className="num">{size(s.bytes)}</td>
                <td className="num">{size(s.addedBytes)}</td>
              </tr>
            ))}
          </DataTable>
          <p className="sc-muted">
            Kept: the newest {fmtInt(retention.maxSnapshots)} snapshots
            {retention.maxAgeDays !== null ? `, none older than ${retention.maxAgeDays} days` : ""} (change it with{" "}
            <code>npm run -s cloud -- history --max-snapshots N --max-age-days N</code>).
          </p>
          {points.length > 1 ? <UsageOverTime points={points} /> : null}
          <form method="get" action="/history" aria-label="Compare two snapshots" className="sc-panel">
            <label>
              From snapshot{" "}
              <select name="a" defaultValue={a ?? undefined}>
                {snaps.map((s) => (
                  <option key={s.id} value={s.id}>
                    {snapshotName(s)}
                  </option>
                ))}
              </select>
            </label>{" "}
            <label>
              To snapshot{" "}
              <select name="b" defaultValue={b ?? undefined}>
                {snaps.map((s) => (
                  <option key={s.id} value={s.id}>
                    {snapshotName(s)}
                  </option>
                ))}
              </select>
            </label>{" "}
            <button type="submit">Show the diff</button>
          </form>
          {diff && a !== null && b !== null ? <DiffView a={a} b={b} diff={diff} /> : null}
          {b !== null && !missing.length ? <Predictions id={b} report={report} /> : null}
        </>
      )}
    </section>
  );
}
