import Link from "next/link";
import { fmtInt } from "@/components/ui/format";
import type { LossSweep } from "@/lib/maintenance/lose-hosts";

/** The share of a host's instances its loss strands, as a colour from green (none) to red (all). */
function heat(stranded: number, instances: number): string {
  if (!instances) return "hsl(0 0% 85%)";
  const share = stranded / instances;
  return `hsl(${Math.round(120 * (1 - share))} 70% ${stranded ? 45 : 60}%)`;
}

/**
 * Per availability zone, every host as one cell coloured by what its loss
 * strands (each host lost on its own, its instances evacuated as Nova
 * would): the zone's worst single-host loss first.
 */
export function LossHeatMap({ sweep }: { sweep: LossSweep }) {
  const zones = Object.keys(sweep.worst_by_zone).sort();
  return (
    <>
      {zones.map((zone) => {
        const worst = sweep.worst_by_zone[zone];
        const losses = sweep.losses.filter((l) => l.availability_zone === zone);
        return (
          <div key={zone} className="loss-zone">
            <h3>Zone {zone}</h3>
            <p>
              {worst.stranded === 0 ? (
                <>This cloud survives the loss of any 1 host in {zone}.</>
              ) : (
                <>
                  Worst single-host loss:{" "}
                  <Link href={`/hosts/${encodeURIComponent(worst.host)}?drain=1`}>{worst.host}</Link> strands{" "}
                  {fmtInt(worst.stranded)} instance(s).
                </>
              )}
            </p>
            <ul className="heat-grid" aria-label={`Single-host losses in ${zone}`}>
              {losses.map((l) => {
                const label = `${l.host}: ${fmtInt(l.stranded.length)} of ${fmtInt(l.instances)} instances stranded`;
                return (
                  <li key={l.host}>
                    <Link
                      href={`/hosts/${encodeURIComponent(l.host)}`}
                      className="heat-cell"
                      aria-label={label}
                      title={l.stranded.length ? `${label}: ${l.stranded[0].reason}` : label}
                      style={{ background: heat(l.stranded.length, l.instances) }}
                    />
                  </li>
                );
              })}
            </ul>
          </div>
        );
      })}
    </>
  );
}
