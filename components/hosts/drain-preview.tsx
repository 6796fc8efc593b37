import { DataTable } from "@/components/ui/table";
import Link from "next/link";
import { fmtInt } from "@/components/ui/format";
import type { DrainStep, DrainSummary } from "@/lib/maintenance/drain";

/**
 * A drain of one host as Nova would do it (lib/maintenance/drain.ts): where
 * each instance goes, or why it cannot, and how many more hosts the
 * stranded ones need. Nothing is written.
 */
export function DrainPreview({ host, steps, summary }: { host: string; steps: DrainStep[]; summary: DrainSummary }) {
  return (
    <>
      <p>
        {fmtInt(summary.moved)} of {fmtInt(steps.length)} instances would move; {fmtInt(summary.stranded)} stranded
        {summary.stranded
          ? summary.more_hosts_needed === null
            ? " (more hosts like this one would not take them: the reason is not room)"
            : `: ${fmtInt(summary.more_hosts_needed)} more host(s) like ${host} would take them`
          : ""}
        . The host's service is disabled first; each instance is live-migrated, or cold-migrated where live migration
        fails, and each move counts before the next.
      </p>
      <DataTable caption={<>Drain of {host}</>} columns={["Instance", "Move", "Destination", "Why not"]}>
        {steps.map((s) => (
          <tr key={s.instance}>
            <th scope="row">
              <code className="small">{s.instance}</code>
            </th>
            <td>{s.operation ?? "stranded"}</td>
            <td>
              {s.destination ? <Link href={`/hosts/${encodeURIComponent(s.destination)}`}>{s.destination}</Link> : "—"}
            </td>
            <td>
              {s.stranded ? `${s.stranded.error}: ${s.stranded.reason}` : ""}
              {s.live_migration_failed ? ` (live migration failed: ${s.live_migration_failed})` : ""}
              {s.not_checked ? ` ${s.not_checked}` : ""}
            </td>
          </tr>
        ))}
      </DataTable>
    </>
  );
}
