import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { removeAggregateMetadata, saveAggregateMetadata } from "@/lib/aggregates/actions";
import {
  AggregateZoneForm,
  DeleteAggregateForm,
  RemoveHostButton,
  RenameAggregateForm,
} from "@/components/aggregates/aggregate-forms";
import { HostPicker } from "@/components/aggregates/host-picker";
import { KvEditor } from "@/components/forms/kv-editor";
import { FilterBar, SearchField } from "@/components/ui/filter-bar";
import { fmtInt, decodeParam } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { Pager } from "@/components/ui/pager";
import { RecordHead } from "@/components/ui/record-head";
import { DataTable, RecordRowHeader } from "@/components/ui/table";
import { getAggregate } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const dynamic = "force-dynamic";

type Params = Promise<{ name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  const { name } = await params;
  return { title: `Aggregate ${decodeParam(name)}` };
}

export default async function AggregatePage({
  params,
  searchParams,
}: {
  params: Params;
  searchParams: Promise<SearchParams>;
}) {
  const [{ name: raw }, query] = await Promise.all([params, searchParams]);
  const sp = readPageParams("/aggregates/[name]", query);
  const name = decodeParam(raw);
  const { hq } = sp;
  const agg = await getAggregate(prisma, name, { search: hq, page: sp.hpage });
  if (!agg) notFound();
  const href = `/aggregates/${encodeURIComponent(agg.name)}`;
  const entries = [
    ...(agg.availabilityZone !== null ? [{ key: "availability_zone", value: agg.availabilityZone }] : []),
    ...agg.metadata,
  ];

  return (
    <section>
      <RecordHead list="Aggregates" listHref="/aggregates" entity="aggregate" name={agg.name}>
        <span className="muted">
          {fmtInt(agg.hostCount)} host{agg.hostCount === 1 ? "" : "s"} · zone {agg.availabilityZone ?? "none"}
        </span>
      </RecordHead>
      {sp.created ? <Notice tone="ok">Aggregate {agg.name} created. Add metadata and hosts below.</Notice> : null}
      {sp.renamed ? <Notice tone="ok">Aggregate renamed to {agg.name}.</Notice> : null}

      <section className="panel settings" aria-labelledby="settings-h">
        <h2 id="settings-h">Settings</h2>
        <div className="settings-grid">
          <RenameAggregateForm id={agg.id} name={agg.name} version={agg.version} />
          <AggregateZoneForm id={agg.id} name={agg.name} zone={agg.availabilityZone} version={agg.version} />
          <DeleteAggregateForm id={agg.id} version={agg.version} name={agg.name} hosts={agg.hostCount} />
        </div>
        <p className="muted small">UUID {agg.uuid ?? "—"}</p>
      </section>

      <KvEditor
        kind="aggregate"
        title="Metadata"
        noun="metadata"
        entries={entries}
        hidden={{ id: agg.id, aggregate_name: agg.name, version: agg.version }}
        saveAction={saveAggregateMetadata}
        removeAction={removeAggregateMetadata}
        emptyText="No metadata. Keys the scheduler reads: availability_zone, filter_tenant_id, instance_type, max_instances_per_host, max_io_ops_per_host, *_weight_multiplier, image properties; any other key is matched against flavors' aggregate_instance_extra_specs."
      />

      <section aria-labelledby="hosts-h">
        <h2 id="hosts-h">Hosts ({fmtInt(agg.hostCount)})</h2>
        <div className="grid-2 wide-left">
          <div>
            <FilterBar
              action={href}
              label="Filter this aggregate's hosts"
              filtered={!!hq}
              submit="Filter"
              submitClassName="btn"
            >
              <SearchField
                id="hq"
                name="hq"
                label={`Filter hosts in ${agg.name}`}
                defaultValue={hq}
                placeholder="part of a host name"
              />
            </FilterBar>
            {agg.hosts.length ? (
              <DataTable
                caption={
                  <>
                    Hosts in {agg.name}
                    {hq ? ` matching “${hq}” (${fmtInt(agg.hostPage.matching)})` : ""}
                  </>
                }
                columns={["Host", "Cell", "State", { label: "Actions", hidden: true }]}
              >
                {agg.hosts.map((h) => (
                  <tr key={h.id}>
                    <RecordRowHeader kind="hosts" id={h.name} />
                    <td>{h.cell}</td>
                    <td>
                      <span className={`state state-${h.state.replace(/\s+/g, "-")}`}>{h.state}</span>
                    </td>
                    <td>
                      <RemoveHostButton id={agg.id} aggregateName={agg.name} host={h.name} version={agg.version} />
                    </td>
                  </tr>
                ))}
              </DataTable>
            ) : (
              <p className="empty">
                {hq ? "No host of this aggregate matches." : "No hosts yet: add some with the search on the right."}
              </p>
            )}
            <Pager
              basePath={href}
              params={{ hq }}
              page={agg.hostPage.page}
              pages={agg.hostPage.pages}
              pageParam="hpage"
              label="Aggregate host pages"
            />
          </div>
          <HostPicker aggregateId={agg.id} aggregateName={agg.name} version={agg.version} />
        </div>
      </section>
    </section>
  );
}
