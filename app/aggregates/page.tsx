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
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const metadata: Metadata = { title: "Aggregates" };
export const dynamic = "force-dynamic";

export default async function AggregatesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const deleted = readPageParams("/aggregates", await searchParams).deleted ?? null;
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
        <table className="data-table">
          <caption>Host aggregates ({aggregates.length})</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Availability zone</th>
              <th scope="col" className="num">
                Hosts
              </th>
              <th scope="col">Metadata (read by)</th>
            </tr>
          </thead>
          <tbody>
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
          </tbody>
        </table>
      ) : (
        <p className="empty">No aggregates yet.</p>
      )}
    </section>
  );
}
