import type { Metadata } from "next";
import { HistoryLink } from "@/components/audit/history-link";
import Link from "next/link";
import { DeleteInstanceForm, InstanceForm } from "@/components/instances/instance-form";
import { EditLink, EditPanel, NewPanel } from "@/components/ui/edit-panel";
import { Notice } from "@/components/ui/notice";
import { DataTable, RecordRowHeader } from "@/components/ui/table";
import { FilterBar, SearchField } from "@/components/ui/filter-bar";
import { fmtInt } from "@/components/ui/format";
import { Pager } from "@/components/ui/pager";
import { getInstance, INSTANCE_PAGE_SIZE, instanceFormChoices, listInstances } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const metadata: Metadata = { title: "Instances" };
export const dynamic = "force-dynamic";

export default async function InstancesPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = readPageParams("/instances", await searchParams);
  const { q, host } = sp;
  const editUuid = sp.edit ?? "";
  const [list, choices, editing] = await Promise.all([
    listInstances(prisma, { search: q, host, page: sp.page, pageSize: INSTANCE_PAGE_SIZE }),
    instanceFormChoices(prisma),
    editUuid ? getInstance(prisma, editUuid) : Promise.resolve(null),
  ]);
  const params = { q, host };
  return (
    <section>
      <h1>Instances</h1>
      <p className="lead">
        Instances are the members of server groups and the targets of same_host / different_host hints.
      </p>
      {sp.deleted ? <Notice tone="ok">Instance {sp.deleted} deleted.</Notice> : null}
      <FilterBar action="/instances" label="Filter instances" filtered={!!(q || host)}>
        <SearchField
          id="inst-q"
          name="q"
          label="Search instances"
          defaultValue={q}
          placeholder="uuid, name or project"
        />
        <SearchField id="inst-host" name="host" label="On host" defaultValue={host} placeholder="exact host name" />
      </FilterBar>

      {editing ? (
        <EditPanel title={`Edit instance ${editing.name ?? editing.uuid}`} closeHref="/instances">
          <HistoryLink entity="instance" entityKey={editing.uuid} />
          <InstanceForm
            key={editing.id}
            choices={choices}
            instance={{
              id: editing.id,
              uuid: editing.uuid,
              name: editing.name,
              host: editing.host?.name ?? null,
              flavor: editing.flavor?.name ?? null,
              image: editing.image?.uuid ?? null,
              projectId: editing.projectId,
              serverGroup: editing.serverGroup?.uuid ?? null,
              version: editing.version,
            }}
          />
          <DeleteInstanceForm id={editing.id} version={editing.version} label={editing.name ?? editing.uuid} />
        </EditPanel>
      ) : editUuid ? (
        <Notice tone="bad">No instance has uuid {editUuid}.</Notice>
      ) : null}

      <p className="muted" role="status">
        {fmtInt(list.total)} instance{list.total === 1 ? "" : "s"}
        {q || host ? " match" : ""}
        {list.pages > 1 ? ` · page ${list.page} of ${list.pages}` : ""}
      </p>
      {list.rows.length ? (
        <DataTable
          className="nowrap-table"
          caption={<>Instances</>}
          captionClassName="visually-hidden"
          columns={[
            "Name",
            "UUID",
            "Host",
            "Flavor",
            "Image",
            "Project",
            "Server group",
            { label: "Actions", hidden: true },
          ]}
        >
          {list.rows.map((i) => (
            <tr key={i.id}>
              <RecordRowHeader kind="instances" id={i.uuid}>
                {i.name ?? i.uuid}
              </RecordRowHeader>
              <td>
                <code className="small">{i.uuid}</code>
              </td>
              <td>
                {i.host ? (
                  <Link href={`/hosts/${encodeURIComponent(i.host)}`}>{i.host}</Link>
                ) : (
                  <span className="muted">none</span>
                )}
              </td>
              <td>{i.flavor ?? "—"}</td>
              <td>{i.image ?? "—"}</td>
              <td>
                <code className="small">{i.projectId ?? "—"}</code>
              </td>
              <td>{i.serverGroup ?? "—"}</td>
              <td>
                <EditLink
                  list="/instances"
                  uuid={i.uuid}
                  name={i.name ?? i.uuid}
                  params={{ ...(q ? { q } : {}), ...(host ? { host } : {}) }}
                />
              </td>
            </tr>
          ))}
        </DataTable>
      ) : (
        <p className="empty">No instance matches.</p>
      )}
      <Pager basePath="/instances" params={params} page={list.page} pages={list.pages} label="Instance pages" />

      <NewPanel id="new-inst" title="New instance">
        <InstanceForm choices={choices} />
      </NewPanel>
    </section>
  );
}
