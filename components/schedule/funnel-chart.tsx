"use client";

import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { AfterPaint } from "@/components/ui/after-paint";
import { fmtCount, fmtStage } from "@/lib/runs/format";
import type { InstanceSummary } from "@/lib/runs/view";

interface Datum {
  name: string;
  hosts: number;
  removed: number;
  kind: "start" | "placement" | "filter";
}

function FunnelTooltip({ active, payload }: { active?: boolean; payload?: Array<{ payload: Datum }> }) {
  if (!active || !payload?.length) return null;
  const d = payload[0].payload;
  return (
    <div className="sc-tooltip">
      <h4>{d.name}</h4>
      {d.kind === "start" ? (
        <div>{fmtCount(d.hosts)} hosts enter</div>
      ) : (
        <div>
          {fmtCount(d.hosts)} left, {fmtCount(d.removed)} removed
          {d.kind === "placement" ? " (Placement prefilter)" : ""}
        </div>
      )}
    </div>
  );
}

const COLORS = { start: "#8a94a6", placement: "#6f5bb5", filter: "#1f5fbf", empty: "#b42318" };

/** Hosts remaining after each Placement prefilter and each filter, in order. */
export function FunnelChart({ summary }: { summary: InstanceSummary }) {
  const data: Datum[] = [
    { name: summary.index === 0 ? "All hosts" : "Hosts entering", hosts: summary.hostsIn, removed: 0, kind: "start" },
    ...summary.funnel.map((f) => ({ name: fmtStage(f.filter), hosts: f.out, removed: f.removed, kind: f.stage })),
  ];
  const height = 36 + data.length * 30;
  const label = `Funnel of instance ${summary.index + 1}: ${data.map((d) => `${d.name} ${d.hosts}`).join(", ")}`;
  return (
    <figure className="sc-chart" aria-label={label} style={{ margin: "0.5rem 0 0.75rem" }}>
      <figcaption>
        Hosts remaining after each stage (Placement prefilters in purple, filters in blue; an emptied list in red).
      </figcaption>
      <div style={{ width: "100%", height }}>
        <AfterPaint height={height}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart
              data={data}
              layout="vertical"
              margin={{ top: 4, right: 56, bottom: 4, left: 8 }}
              barCategoryGap={6}
            >
              <CartesianGrid horizontal={false} stroke="#e5e9f0" />
              <XAxis type="number" allowDecimals={false} tick={{ fontSize: 12 }} />
              <YAxis type="category" dataKey="name" width={250} tick={{ fontSize: 12 }} interval={0} />
              <Tooltip content={<FunnelTooltip />} cursor={{ fill: "#f0f3f8" }} />
              <Bar dataKey="hosts" isAnimationActive={false} name="Hosts left" minPointSize={4}>
                {data.map((d, i) => (
                  <Cell key={i} fill={d.hosts === 0 && d.kind !== "start" ? COLORS.empty : COLORS[d.kind]} />
                ))}
                <LabelList dataKey="hosts" position="right" style={{ fontSize: 12, fill: "#1c2330" }} />
              </Bar>
            </BarChart>
          </ResponsiveContainer>
        </AfterPaint>
      </div>
    </figure>
  );
}
