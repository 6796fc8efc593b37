import { DataTable, RecordRowHeader } from "@/components/ui/table";
import type { Metadata } from "next";
import Link from "next/link";
import { DensityFrame, DensityToggle } from "@/components/ui/density";
import { FilterBar, FilterSelect, SearchField } from "@/components/ui/filter-bar";
import { fmtGb, fmtInt, fmtMb, pct } from "@/components/ui/format";
import { MiniBar } from "@/components/ui/usage-bar";
import { Pager, queryString } from "@/components/ui/pager";
import {
  HOST_PAGE_SIZES,
  HOST_SORTS,
  HOST_STATES,
  listCellNames,
  listHostsPage,
  type HostSort,
  type HostStateFilter,
} from "@/lib/cloud/queries";
import { prisma } from "@/lib/db";
import type { SearchParams } from "@/lib/api/params";
import { readPageParams } from "@/lib/api/page-params";

export const metadata: Metadata = { title: "Hosts" };
// Always read the database at request time, never at build time.
export const dynamic = "force-dynamic";

const STATE_LABELS: Record<HostStateFilter, string> = {
  up: "up",
  disabled: "disabled",
  down: "down",
  "forced-down": "forced down",
  problem: "disabled, down or forced down",
};

const COLUMNS: { sort: HostSort; label: string; num?: boolean }[] = [
  { sort: "name", label: "Name" },
  { sort: "cell", label: "Cell" },
  { sort: "vcpus", label: "vCPUs", num: true },
  { sort: "vcpu_usage", label: "vCPU used", num: true },
  { sort: "ram", label: "RAM", num: true },
  { sort: "ram_usage", label: "RAM used", num: true },
  { sort: "disk", label: "Disk", num: true },
  { sort: "disk_usage", label: "Disk used", num: true },
  { sort: "instances", label: "Instances", num: true },
  { sort: "state", label: "State" },
];

export default async function HostsPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = readPageParams("/hosts", await searchParams);
  const { q, sort, dir, state } = sp;
  const cell = sp.cell || undefined;
  const size = Number(sp.size);
  const pageNum = sp.page;

  const [result, cells] = await Promise.all([
    listHostsPage(prisma, { search: q, sort, dir, page: pageNum, pageSize: size, state, cell }),
    listCellNames(prisma),
  ]);
  const base = {
    q,
    sort: sort === "position" ? undefined : sort,
    dir: dir === "asc" ? undefined : dir,
    state,
    cell,
    size: size === 50 ? undefined : size,
  };
  const sortHref = (s: HostSort) => {
    const nextDir = sort === s && dir === "asc" ? "desc" : "asc";
    return `/hosts${queryString({ ...base, sort: s, dir: nextDir === "asc" ? undefined : nextDir })}`;
  };
  const first = (result.page - 1) * size + 1;
  const last = Math.min(result.total, result.page * size);
  const filtered = Boolean(q || state || cell);

  return (
    <section>
      <div className="page-head">
        <h1>Hosts</h1>
        <DensityToggle />
      </div>
      <FilterBar action="/hosts" label="Filter hosts" filtered={filtered}>
        <SearchField
          id="host-q"
          name="q"
          label="Search hosts"
          defaultValue={q}
          placeholder="name, hypervisor hostname or IP"
        />
        <FilterSelect
          id="host-state"
          name="state"
          label="State"
          defaultValue={state ?? ""}
          any="any"
          options={(Object.keys(HOST_STATES) as HostStateFilter[]).map((s) => ({ value: s, label: STATE_LABELS[s] }))}
        />
        <FilterSelect id="host-cell" name="cell" label="Cell" defaultValue={cell ?? ""} any="any" options={cells} />
        <FilterSelect
          id="host-size"
          name="size"
          label="Per page"
          defaultValue={String(size)}
          options={HOST_PAGE_SIZES.map(String)}
        />
        {sort !== "position" ? <input type="hidden" name="sort" value={sort} /> : null}
        {dir === "desc" ? <input type="hidden" name="dir" value="desc" /> : null}
      </FilterBar>

      <p className="muted" role="status">
        {result.total === 0
          ? null
          : `${fmtInt(result.total)} compute host${result.total === 1 ? "" : "s"}${filtered ? " match" : ""} · showing ${fmtInt(first)}–${fmtInt(last)}, sorted by ${HOST_SORTS[sort].label} (${dir === "asc" ? "ascending" : "descending"})`}
      </p>

      {result.total > 0 ? (
        <DensityFrame>
          <div className="table-scroll">
            <DataTable
              label="Compute hosts"
              columns={[
                ...COLUMNS.map((c) => ({
                  num: c.num,
                  sort:
                    sort === c.sort ? (dir === "asc" ? ("ascending" as const) : ("descending" as const)) : undefined,
                  label: (
                    <Link href={sortHref(c.sort)} className="sort-link" scroll={false}>
                      {c.label}
                      <span aria-hidden="true" className="sort-mark">
                        {sort === c.sort ? (dir === "asc" ? "▲" : "▼") : "↕"}
                      </span>
                    </Link>
                  ),
                })),
                "Zone",
              ]}
            >
              {result.rows.map((h) => (
                <tr key={h.id}>
                  <RecordRowHeader kind="hosts" id={h.name} />
                  <td>{h.cell}</td>
                  <td className="num">{fmtInt(h.vcpus)}</td>
                  <td className="num">
                    <MiniBar used={h.vcpusUsed} total={h.vcpusCapacity} /> {fmtInt(h.vcpusUsed)} /{" "}
                    {fmtInt(h.vcpusCapacity)} <span className="muted">({pct(h.vcpusUsed, h.vcpusCapacity)})</span>
                  </td>
                  <td className="num">{fmtMb(h.memoryMb)}</td>
                  <td className="num">
                    <MiniBar used={h.memoryMbUsed} total={h.memoryMbCapacity} />{" "}
                    {pct(h.memoryMbUsed, h.memoryMbCapacity)}
                  </td>
                  <td className="num">{fmtGb(h.localGb)}</td>
                  <td className="num">
                    <MiniBar used={h.localGbUsed} total={h.localGbCapacity} /> {pct(h.localGbUsed, h.localGbCapacity)}
                  </td>
                  <td className="num">{fmtInt(h.numInstances)}</td>
                  <td>
                    <span
                      className={`state state-${h.state.replace(/\s+/g, "-")}`}
                      title={h.disabledReason ?? undefined}
                    >
                      {h.state}
                    </span>
                  </td>
                  <td>{h.availabilityZone}</td>
                </tr>
              ))}
            </DataTable>
          </div>
        </DensityFrame>
      ) : (
        <p className="empty">
          {filtered ? (
            "No host matches these filters."
          ) : (
            <>
              No hosts yet. Seed the demo cloud with <code>npm run seed</code>.
            </>
          )}
        </p>
      )}
      <Pager basePath="/hosts" params={base} page={result.page} pages={result.pages} label="Host pages" />
      <p className="muted small">
        Capacity = total × allocation ratio; used as the compute nodes report it. Query {result.ms.toFixed(0)} ms.
      </p>
    </section>
  );
}
