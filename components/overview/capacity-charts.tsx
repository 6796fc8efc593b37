"use client";

/**
 * Capacity charts of the overview: for each group (availability zone, cell
 * or aggregate), used vs free vCPU, RAM and disk after allocation ratios,
 * as stacked horizontal bars (recharts). The numbers are also in the table
 * next to the charts, so the charts themselves are a visual aid.
 */
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { CapacityRow } from "@/lib/cloud/queries";

type Resource = "vcpu" | "ram" | "disk";

const RESOURCES: { key: Resource; title: string; unit: string; scale: (n: number) => number }[] = [
  { key: "vcpu", title: "vCPU", unit: "vCPUs", scale: (n) => n },
  { key: "ram", title: "RAM", unit: "GiB", scale: (n) => n / 1024 },
  { key: "disk", title: "Disk", unit: "TB", scale: (n) => n / 1000 },
];

function pick(r: CapacityRow, res: Resource): [number, number] {
  if (res === "vcpu") return [r.vcpusUsed, r.vcpusCapacity];
  if (res === "ram") return [r.memoryMbUsed, r.memoryMbCapacity];
  return [r.localGbUsed, r.localGbCapacity];
}

const nf = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

export function CapacityCharts({ rows, group }: { rows: CapacityRow[]; group: string }) {
  const height = Math.max(110, 34 + rows.length * 26);
  return (
    <div className="chart-row">
      {RESOURCES.map((res) => {
        const data = rows.map((r) => {
          const [used, total] = pick(r, res.key);
          return {
            name: r.name,
            used: Number(res.scale(used).toFixed(1)),
            free: Number(res.scale(Math.max(0, total - used)).toFixed(1)),
          };
        });
        return (
          <figure key={res.key} className="chart" aria-label={`${res.title} used and free by ${group}`}>
            <figcaption>
              {res.title} <span className="muted small">({res.unit})</span>
            </figcaption>
            <div style={{ width: "100%", height }}>
              <ResponsiveContainer width="100%" height="100%">
                <BarChart
                  data={data}
                  layout="vertical"
                  margin={{ top: 4, right: 12, bottom: 4, left: 4 }}
                  barCategoryGap={4}
                >
                  <CartesianGrid horizontal={false} stroke="#e3e7ee" />
                  <XAxis type="number" tickFormatter={(v: number) => nf.format(v)} fontSize={11} />
                  <YAxis type="category" dataKey="name" width={90} fontSize={11} interval={0} />
                  <Tooltip formatter={(v) => `${nf.format(Number(v))} ${res.unit}`} />
                  <Legend wrapperStyle={{ fontSize: 11 }} />
                  <Bar dataKey="used" name="used" stackId="a" fill="#1f5fbf" isAnimationActive={false} />
                  <Bar dataKey="free" name="free" stackId="a" fill="#b9cdea" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </div>
          </figure>
        );
      })}
    </div>
  );
}
