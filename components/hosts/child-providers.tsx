import { DataTable } from "@/components/ui/table";
/**
 * The resource providers under a compute node (vGPU types per physical GPU,
 * SR-IOV physical functions, ...) with their inventories, usages and traits,
 * as Placement holds them. Server component: plain tables.
 */
import { fmtInt } from "@/components/ui/format";
import type { ChildProviderInput } from "@/lib/scenario/schema";

export function ChildProviders({ node, providers }: { node: string; providers: ChildProviderInput[] }) {
  return (
    <section aria-labelledby="child-rp-h">
      <h2 id="child-rp-h">Child resource providers ({providers.length})</h2>
      {providers.length === 0 ? (
        <p className="muted">None: every resource of this host is on its compute node&apos;s own provider ({node}).</p>
      ) : (
        <DataTable
          className="compact-table"
          caption={<>Resource providers under {node}: a request may take its unnumbered resources from any of them</>}
          columns={[
            "Provider",
            "Parent",
            "Resource class",
            { label: "Total", num: true },
            { label: "Used", num: true },
            "Details",
            "Traits",
          ]}
        >
          {providers.flatMap((p) => {
            const inventories = Object.entries(p.inventories ?? {});
            const rows = inventories.length ? inventories : [[null, null] as const];
            return rows.map(([rc, inv], k) => (
              <tr key={`${p.name}-${rc ?? "none"}`}>
                {k === 0 ? (
                  <>
                    <th scope="row" rowSpan={rows.length}>
                      {p.name}
                    </th>
                    <td rowSpan={rows.length}>{p.parent ?? `${node} (compute node)`}</td>
                  </>
                ) : null}
                <td>{rc ?? "no inventory"}</td>
                <td className="num">{inv ? fmtInt(inv.total) : "—"}</td>
                <td className="num">{rc ? fmtInt(p.usages?.[rc] ?? inv?.used ?? 0) : "—"}</td>
                <td className="small">
                  {inv
                    ? `reserved ${inv.reserved ?? 0}, ratio ${inv.allocation_ratio ?? 1}, units ${inv.min_unit ?? 1}–${inv.max_unit ?? inv.total} step ${inv.step_size ?? 1}`
                    : ""}
                </td>
                {k === 0 ? (
                  <td rowSpan={rows.length} className="small">
                    {(p.traits ?? []).join(", ") || "—"}
                  </td>
                ) : null}
              </tr>
            ));
          })}
        </DataTable>
      )}
    </section>
  );
}
