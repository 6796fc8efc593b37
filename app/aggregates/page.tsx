import { PageFrame } from "@/components/ui/page-frame";
import { DataTable, RecordRowHeader } from "@/components/ui/table";
import type { Metadata } from "next";
import { CreateAggregateForm } from "@/components/aggregates/aggregate-forms";
import { KeyValueChips } from "@/components/ui/chips";
import { NewPanel } from "@/components/ui/edit-panel";
import { fmtInt } from "@/components/ui/format";
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
    <PageFrame
      title="Aggregates"
      lead={
        <>
          Host aggregates group hosts; their availability zone and metadata are what AvailabilityZoneFilter, the
          Aggregate* filters and the weighers&apos; per-aggregate multipliers read.
        </>
      }
      notice={deleted ? <>Aggregate {deleted} deleted.</> : null}
    >
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
              <RecordRowHeader kind="aggregates" id={a.name} />
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
    </PageFrame>
  );
}
