import { DataTable } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { CreateAggregateForm } from "@/components/aggregates/aggregate-forms";
import { KeyValueChips } from "@/components/ui/chips";
import { NewPanel } from "@/components/ui/edit-panel";
import { fmtInt } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { describeMetadataKey } from "@/lib/catalog/metadata-keys";
import { listAggregates } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";

export const metadata: Metadata = { title: "Aggregates" };
export const dynamic = "force-dynamic";

type SP = Record<string, string | string[] | undefined>;

export default async function AggregatesPage({ searchParams }: { searchParams: Promise<SP> }) {
  const sp = await searchParams;
  const deleted = typeof sp.deleted === "string" ? sp.deleted : null;
  const aggregates = await listAggregates(prisma);
  return (
    <section>
      <h1>Aggregates</h1>
      <p className="lead">
        Host aggregates group hosts; their availability zone and metadata are what AvailabilityZoneFilter, the
        Aggregate* filters and the weighers&apos; per-aggregate multipliers read.
      </p>
      {deleted ? <Notice tone="ok">Aggregate {deleted} deleted.</Notice> : null}
      <NewPanel id="new-agg" title="New aggregate">
        <CreateAggregateForm />
      </NewPanel>
      {aggregates.length ? (
        <DataTable
          caption={<>Host aggregates ({aggregates.length})</>}
          columns={["Name", "Availability zone", { label: "Hosts", num: true }, "Metadata (read by)"]}
        >
          {aggregates.map((a) => (
            <tr key={a.id}>
              <th scope="row">
                <Link href={`/aggregates/${encodeURIComponent(a.name)}`}>{a.name}</Link>
              </th>
              <td>{a.availabilityZone ?? <span className="muted">—</span>}</td>
              <td className="num">{fmtInt(a.hostCount)}</td>
              <td>
                <KeyValueChips
                  chips={a.metadata.map((m) => ({
                    ...m,
                    note: <span className="muted small">{describeMetadataKey(m.key).reader}</span>,
                  }))}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p className="empty">No aggregates yet.</p>
      )}
    </section>
  );
}
