import { DataTable } from "@/components/ui/table";
/**
 * What became of each option of an imported nova.conf: kept (into which
 * profile key), ignored (why) or unknown. Shown on /import and /config.
 */
import type { OptionReport } from "@/lib/openstack/nova-conf";

export function NovaConfReport({ report, caption }: { report: OptionReport[]; caption?: string }) {
  return (
    <DataTable
      className="compact-table"
      caption={caption ?? "nova.conf, option by option"}
      columns={["Option", { label: "Line", num: true }, "Taken", "Into / why"]}
    >
      {report.map((r) => (
        <tr key={`${r.line}-${r.option}`}>
          <th scope="row">
            <code>{r.option}</code>
          </th>
          <td className="num">{r.line || "—"}</td>
          <td>
            <span className={r.status === "kept" ? "tag ok" : r.status === "unknown" ? "tag bad" : "tag"}>
              {r.status}
            </span>
          </td>
          <td className="small">{r.detail}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** The report carried in /config's query after an import (only what was not kept). */
export function parseReportParam(v: unknown): OptionReport[] {
  if (typeof v !== "string") return [];
  try {
    const parsed = JSON.parse(v);
    if (!Array.isArray(parsed)) return [];
    return parsed
      .filter(
        (r) =>
          r &&
          typeof r.option === "string" &&
          typeof r.detail === "string" &&
          typeof r.line === "number" &&
          ["kept", "ignored", "unknown"].includes(r.status),
      )
      .slice(0, 40);
  } catch {
    return [];
  }
}
