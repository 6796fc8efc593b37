import { PageFrame } from "@/components/ui/page-frame";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";
import type { Metadata } from "next";
import { HistoryLink } from "@/components/audit/history-link";
import Link from "next/link";
import { DeleteServerGroupForm, ServerGroupForm } from "@/components/server-groups/server-group-forms";
import { EditLink, EditPanel, NewPanel } from "@/components/ui/edit-panel";
import { DataTable } from "@/components/ui/table";
import { listServerGroups } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";

export const metadata: Metadata = { title: "Server groups" };
export const dynamic = "force-dynamic";

export default async function ServerGroupsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = readPageParams("/server-groups", await searchParams);
  const editUuid = sp.edit ?? null;
  const groups = await listServerGroups(prisma);
  const editing = editUuid ? (groups.find((g) => g.uuid === editUuid) ?? null) : null;
  return (
    <PageFrame
      title="Server groups"
      lead={
        <>
          A server group&apos;s policy places its members together or apart; its members are instances (set an
          instance&apos;s group on the <Link href="/instances">instances</Link> page).
        </>
      }
      notice={sp.deleted ? <>Server group {sp.deleted} deleted; its members are in no group now.</> : null}
    >
      <DataTable
        caption={<>Server groups ({groups.length})</>}
        columns={["Name", "Policy", "Rules", "Project", "Members (hosts)", { label: "Actions", hidden: true }]}
      >
        {groups.map((g) => (
          <tr key={g.id}>
            <th scope="row">
              {g.name}
              <div className="muted small">
                <code>{g.uuid}</code>
              </div>
            </th>
            <td>{g.policy}</td>
            <td>
              {g.maxServerPerHost !== null ? (
                <code>max_server_per_host={g.maxServerPerHost}</code>
              ) : (
                <span className="muted">—</span>
              )}
            </td>
            <td>
              <code className="small">{g.projectId ?? "—"}</code>
            </td>
            <td>
              {g.memberCount ? (
                <details>
                  <summary>
                    {g.memberCount} member{g.memberCount === 1 ? "" : "s"} on{" "}
                    {new Set(g.members.map((m) => m.host ?? "no host")).size} host(s)
                  </summary>
                  <ul className="plain small">
                    {g.members.map((m) => (
                      <li key={m.uuid}>
                        {m.name ?? m.uuid} →{" "}
                        {m.host ? (
                          <Link href={`/hosts/${encodeURIComponent(m.host)}`}>{m.host}</Link>
                        ) : (
                          <span className="muted">no host</span>
                        )}
                      </li>
                    ))}
                  </ul>
                </details>
              ) : (
                <span className="muted">no members</span>
              )}
            </td>
            <td>
              <EditLink list="/server-groups" uuid={g.uuid} name={g.name} />
            </td>
          </tr>
        ))}
      </DataTable>
      {editing ? (
        <EditPanel title={`Edit server group ${editing.name}`} closeHref="/server-groups">
          <HistoryLink entity="server_group" entityKey={editing.uuid} />
          <ServerGroupForm key={editing.id} group={editing} />
          <DeleteServerGroupForm
            id={editing.id}
            version={editing.version}
            name={editing.name}
            members={editing.memberCount}
          />
        </EditPanel>
      ) : null}
      <NewPanel id="new-sg" title="New server group">
        <ServerGroupForm />
      </NewPanel>
    </PageFrame>
  );
}
