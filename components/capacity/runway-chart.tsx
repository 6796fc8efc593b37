"use client";

/**
 * One flavor's runway in one AZ: the allocation history (points), the
 * least-squares trend carried forward, the conservative band (up to the 95%
 * upper prediction bound), the level at which the flavor is full, and the
 * date. The sentence above the chart says the same in words.
 */
import {
  Area,
  CartesianGrid,
  ComposedChart,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { RunwayRow } from "@/lib/metrics/runway-view";

const nf = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

export function RunwayChart({ row }: { row: RunwayRow }) {
  const fullDay = row.fullDate ? row.points.find((p) => p.date >= row.fullDate!)?.day : undefined;
  return (
    <figure
      className="chart"
      aria-label={`${row.resource ?? "allocation"} allocated in ${row.az}: history, ${row.window}-day trend, conservative band and the date ${row.flavor} is full`}
    >
      <figcaption>
        {row.az} · {row.resource} allocated · {row.window}-day trend
      </figcaption>
      <div style={{ width: "100%", height: 220 }}>
        <ResponsiveContainer width="100%" height="100%">
          <ComposedChart data={row.points} margin={{ top: 8, right: 16, bottom: 4, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" />
            <XAxis dataKey="date" minTickGap={40} />
            <YAxis tickFormatter={(v: number) => nf.format(v)} width={72} />
            <Tooltip
              formatter={(v) =>
                Array.isArray(v) ? v.map((x) => nf.format(Number(x))).join(" – ") : nf.format(Number(v))
              }
            />
            <Area
              dataKey="band"
              name="conservative band"
              stroke="none"
              fill="#f0a35e"
              fillOpacity={0.3}
              isAnimationActive={false}
            />
            <Line dataKey="allocated" name="allocated" stroke="#2f6fb0" dot={false} isAnimationActive={false} />
            <Line
              dataKey="trend"
              name="trend"
              stroke="#444"
              strokeDasharray="6 4"
              dot={false}
              isAnimationActive={false}
            />
            {row.ceiling !== null && (
              <ReferenceLine
                y={row.ceiling}
                stroke="#b03030"
                label={{ value: `full for ${row.flavor}`, position: "insideTopLeft" }}
              />
            )}
            {fullDay !== undefined && row.fullDate && (
              <ReferenceLine
                x={row.fullDate}
                stroke="#b03030"
                strokeDasharray="2 2"
                label={{ value: row.fullDate, position: "top" }}
              />
            )}
          </ComposedChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
