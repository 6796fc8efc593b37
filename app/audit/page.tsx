import { FilterSelect } from "@/components/ui/filter-bar";
import { DataTable } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { Pager, queryString } from "@/components/ui/pager";
import { entityHref } from "@/lib/audit/entities";
import { ENTITY_KINDS } from "@/lib/core/action-registry";
import { type AuditFilter, AuditFilterSchema, auditUsers, listAudit } from "@/lib/audit/queries";
import { prisma } from "@/lib/db";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";
import { OPTION_DOCS } from "@/lib/scheduler/config";

export const metadata: Metadata = { title: "Audit trail" };
export const dynamic = "force-dynamic";

const DEFAULTS = new Map<string, unknown>(OPTION_DOCS.map((o) => [o.key, o.default]));

/** The fields that differ between two JSON values, as "field: before → after" lines. */
function changes(before: string | null, after: string | null): { field: string; before: string; after: string }[] {
  const b = before ? (JSON.parse(before) as Record<string, unknown>) : {};
  const a = after ? (JSON.parse(after) as Record<string, unknown>) : {};
  const out: { field: string; before: string; after: string }[] = [];
  const show = (v: unknown) => (v === undefined ? "—" : typeof v === "string" ? v : JSON.stringify(v));
  for (const k of [...new Set([...Object.keys(b), ...Object.keys(a)])]) {
    const bv = b[k];
    const av = a[k];
    if (JSON.stringify(bv) === JSON.stringify(av)) continue;
    // one level down for maps (metadata, extra specs, properties)
    if (bv && av && typeof bv === "object" && typeof av === "object" && !Array.isArray(bv) && !Array.isArray(av)) {
      const bm = bv as Record<string, unknown>;
      const am = av as Record<string, unknown>;
      // a profile option left out reads as Nova's default: [] → (unset) is no change when [] is the default
      const meant = (m: Record<string, unknown>, kk: string) =>
        k === "config" && m[kk] === undefined && DEFAULTS.has(kk) ? DEFAULTS.get(kk) : m[kk];
      for (const kk of [...new Set([...Object.keys(bm), ...Object.keys(am)])])
        if (JSON.stringify(meant(bm, kk)) !== JSON.stringify(meant(am, kk)))
          out.push({ field: `${k}.${kk}`, before: show(bm[kk]), after: show(am[kk]) });
      continue;
    }
    out.push({ field: k, before: show(bv), after: show(av) });
  }
  return out;
}

export default async function AuditPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const { page, ...raw } = readPageParams("/audit", await searchParams);
  const parsed = AuditFilterSchema.safeParse(raw);
  const filter: AuditFilter = parsed.success ? parsed.data : {};
  const [{ entries, total, pages }, users] = await Promise.all([
    listAudit(prisma, filter, { limit: 50, page }),
    auditUsers(prisma),
  ]);
  return (
    <section>
      <h1>Audit trail</h1>
      <p>
        Every change to the cloud: who, when, what, and the values before and after ({total} matching). Trial runs are
        not changes and are listed under <Link href="/runs">Runs</Link>.
      </p>
      <form method="get" action="/audit" aria-label="Filter the audit trail" className="filters">
        <FilterSelect id="audit-user" name="user" label="User" defaultValue={raw.user} any="anyone" options={users} />
        <FilterSelect
          id="audit-entity"
          name="entity"
          label="Entity"
          defaultValue={raw.entity}
          any="any"
          options={[...ENTITY_KINDS, "user", "cloud", "connection"].map((k) => ({
            value: k,
            label: k.replace("_", " "),
          }))}
        />
        <div className="field">
          <label htmlFor="audit-key">Name or uuid</label>
          <input id="audit-key" name="key" defaultValue={raw.key} />
        </div>
        <div className="field">
          <label htmlFor="audit-from">From (UTC)</label>
          <input id="audit-from" name="from" type="datetime-local" defaultValue={raw.from} />
        </div>
        <div className="field">
          <label htmlFor="audit-to">To (UTC)</label>
          <input id="audit-to" name="to" type="datetime-local" defaultValue={raw.to} />
        </div>
        <button type="submit" className="btn primary">
          Filter
        </button>
        <a className="btn" href={`/audit/export${queryString(raw)}`} download>
          Export CSV
        </a>
      </form>
      {!parsed.success ? (
        <p role="alert" className="form-status bad">
          {parsed.error.issues.map((i) => i.message).join("; ")}
        </p>
      ) : null}
      {entries.length === 0 ? (
        <p className="empty">No changes match.</p>
      ) : (
        <div className="table-scroll">
          <DataTable
            label="Changes"
            className="audit-table"
            columns={["When (UTC)", "Who", "Action", "What", "Field", "Before", "After"]}
          >
            {entries.map((e) => {
              const diff = changes(e.before, e.after);
              const rows = diff.length
                ? diff
                : [{ field: "", before: e.before ? "…" : "—", after: e.after ? "…" : "—" }];
              const href = e.after ? entityHref(e.entity, e.entityKey) : null;
              return rows.map((d, i) => (
                <tr key={`${e.id}-${d.field}`}>
                  {i === 0 ? (
                    <>
                      <td rowSpan={rows.length}>
                        <time dateTime={e.at.toISOString()}>{e.at.toISOString().slice(0, 19).replace("T", " ")}</time>
                      </td>
                      <td rowSpan={rows.length}>
                        {e.userName} <span className="role-badge">{e.role}</span>
                      </td>
                      <td rowSpan={rows.length}>
                        <code>{e.action}</code>
                        {!e.before ? " (created)" : !e.after ? " (deleted)" : ""}
                      </td>
                      <td rowSpan={rows.length}>
                        {e.entity.replace("_", " ")} {href ? <Link href={href}>{e.entityKey}</Link> : e.entityKey}
                      </td>
                    </>
                  ) : null}
                  <td>
                    <code>{d.field}</code>
                  </td>
                  <td className="audit-value">{d.before}</td>
                  <td className="audit-value">{d.after}</td>
                </tr>
              ));
            })}
          </DataTable>
        </div>
      )}
      <Pager basePath="/audit" params={raw} page={page} pages={pages} label="Audit pages" />
    </section>
  );
}
