import type { Metadata } from "next";
import { NovaConfReport, parseReportParam } from "@/components/config/nova-conf-report";
import { HistoryLink } from "@/components/audit/history-link";
import Link from "next/link";
import {
  ActivateProfileButton,
  CreateProfileForm,
  DeleteProfileButton,
  ProfileEditor,
  type Catalogue,
} from "@/components/config/profile-editor";
import { ExportNovaConfLink, ImportNovaConfForm } from "@/components/config/nova-conf-forms";
import { NewPanel } from "@/components/ui/edit-panel";
import { fmtDate } from "@/components/ui/format";
import { Notice } from "@/components/ui/notice";
import { DataTable } from "@/components/ui/table";
import { listProfiles } from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";
import {
  DEFAULT_ENABLED_FILTERS,
  FILTER_DESCRIPTORS,
  OPTION_DOCS,
  WEIGHER_DESCRIPTORS,
  ZED_ALL_WEIGHERS,
} from "@/lib/scheduler";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const metadata: Metadata = { title: "Config" };
export const dynamic = "force-dynamic";

const catalogue: Catalogue = {
  filters: Object.values(FILTER_DESCRIPTORS).map(({ name, doc }) => ({ name, doc })),
  weighers: Object.values(WEIGHER_DESCRIPTORS).map(({ name, doc, multiplier }) => ({ name, doc, multiplier })),
  options: OPTION_DOCS,
  defaultFilters: DEFAULT_ENABLED_FILTERS,
  allWeighers: ZED_ALL_WEIGHERS,
};

export default async function ConfigPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = readPageParams("/config", await searchParams);
  const profiles = await listProfiles(prisma);
  const wanted = sp.profile ?? null;
  const selected = profiles.find((p) => p.name === wanted) ?? profiles.find((p) => p.active) ?? profiles[0] ?? null;
  return (
    <section>
      <h1>Scheduler configuration</h1>
      <p className="lead">
        Named profiles of nova.conf&apos;s [filter_scheduler] options. The active one is what scheduling runs use.
      </p>
      {sp.deleted ? <Notice tone="ok">Profile {sp.deleted} deleted.</Notice> : null}
      {sp.imported && selected ? (
        <Notice tone="ok">
          nova.conf imported as profile {selected.name}
          {sp.kept ? `: ${sp.kept} option(s) kept` : ""}.
        </Notice>
      ) : null}
      {sp.imported && parseReportParam(sp.report).length ? (
        <NovaConfReport report={parseReportParam(sp.report)} caption="nova.conf options not kept, and why" />
      ) : null}
      {sp.created && selected ? <Notice tone="ok">Profile {selected.name} created.</Notice> : null}
      <div className="grid-2 wide-right">
        <div>
          <DataTable
            className="profile-table"
            caption={<>Profiles ({profiles.length})</>}
            columns={["Name", "State", { label: "Actions", hidden: true }]}
          >
            {profiles.map((p) => (
              <tr
                key={p.id}
                aria-current={selected?.id === p.id ? "true" : undefined}
                className={selected?.id === p.id ? "selected" : undefined}
              >
                <th scope="row">
                  <Link href={`/config?profile=${encodeURIComponent(p.name)}`} aria-label={`Edit profile ${p.name}`}>
                    {p.name}
                  </Link>
                  {p.description ? <div className="muted small">{p.description}</div> : null}
                </th>
                <td>
                  {p.active ? <span className="state state-up">active</span> : <span className="muted">inactive</span>}
                </td>
                <td className="actions">
                  {!p.active ? (
                    <div className="stack-actions">
                      <ActivateProfileButton id={p.id} version={p.version} name={p.name} />
                      <DeleteProfileButton id={p.id} version={p.version} name={p.name} />
                    </div>
                  ) : null}
                </td>
              </tr>
            ))}
          </DataTable>
          <NewPanel id="new-profile" title="New profile">
            <CreateProfileForm profiles={profiles.map((p) => p.name)} />
          </NewPanel>
          <section className="panel">
            <ImportNovaConfForm />
          </section>
        </div>
        <div>
          {selected ? (
            <>
              <div className="page-head">
                <h2>
                  Profile {selected.name} {selected.active ? <span className="state state-up">active</span> : null}
                </h2>
                <span className="muted small">updated {fmtDate(selected.updatedAt)}</span>
                <ExportNovaConfLink profile={selected.name} />
              </div>
              {selected.configError ? (
                <Notice tone="bad">The stored {selected.configError}; saving replaces it.</Notice>
              ) : null}
              <HistoryLink entity="profile" entityKey={selected.name} />
              <ProfileEditor
                key={selected.id}
                profile={{
                  id: selected.id,
                  name: selected.name,
                  description: selected.description,
                  active: selected.active,
                  config: selected.config,
                  version: selected.version,
                }}
                catalogue={catalogue}
              />
            </>
          ) : (
            <p className="empty">No profile yet: create one (the scheduler then uses Nova&apos;s defaults).</p>
          )}
        </div>
      </div>
    </section>
  );
}
