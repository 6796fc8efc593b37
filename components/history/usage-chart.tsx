"use client";

/**
 * RAM in use per availability zone over the snapshots (recharts), oldest
 * first. The figures are in the snapshot table beside it too.
 */
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface UsagePoint {
  id: number;
  takenAt: string;
  /** per AZ: RAM used in % of the AZ's RAM */
  zones: Record<string, number>;
}

const COLORS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2"];

export function UsageOverTime({ points }: { points: UsagePoint[] }) {
  const zones = [...new Set(points.flatMap((p) => Object.keys(p.zones)))].sort();
  const data = points.map((p) => ({ name: `#${p.id}`, ...p.zones }));
  return (
    <figure aria-label="RAM used per availability zone over the snapshots" style={{ margin: 0 }}>
      <ResponsiveContainer width="100%" height={220}>
        <LineChart data={data} margin={{ top: 8, right: 16, bottom: 4, left: 0 }}>
          <CartesianGrid strokeDasharray="3 3" />
          <XAxis dataKey="name" />
          <YAxis unit=" %" domain={[0, 100]} width={52} />
          <Tooltip formatter={(v) => `${Number(v).toFixed(1)} %`} />
          <Legend />
          {zones.map((z, i) => (
            <Line
              key={z}
              type="monotone"
              dataKey={z}
              stroke={COLORS[i % COLORS.length]}
              dot
              isAnimationActive={false}
            />
          ))}
        </LineChart>
      </ResponsiveContainer>
      <figcaption className="sc-muted">
        RAM in use per availability zone, % of the zone&apos;s RAM, at each snapshot
      </figcaption>
    </figure>
  );
}
