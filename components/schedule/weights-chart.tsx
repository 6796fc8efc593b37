"use client";

import { useState } from "react";
import {
  Bar,
  CartesianGrid,
  ComposedChart,
  ReferenceLine,
  ResponsiveContainer,
  Scatter,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import { AfterPaint } from "@/components/ui/after-paint";
import { fmtMultiplier, fmtNormalized, fmtRaw, fmtSource, fmtWeight, shortWeigher } from "@/lib/runs/format";
import type { WeighedRow } from "@/lib/runs/view";

/** One colour per weigher, in the engine's order (distinct, readable on white). */
export const WEIGHER_COLORS = [
  "#4e79a7",
  "#f28e2b",
  "#59a14f",
  "#e15759",
  "#76b7b2",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
  "#1b9e77",
  "#7570b3",
];

export const ROLE_COLORS = { chosen: "#11612c", alternate: "#9a5b00" };

export function weigherColor(names: string[], name: string): string {
  const i = names.indexOf(name);
  return WEIGHER_COLORS[Math.max(i, 0) % WEIGHER_COLORS.length];
}

/** Weighers that add something to at least one of the rows (the others are listed, not drawn). */
export function effectiveWeighers(names: string[], rows: WeighedRow[]): { drawn: string[]; flat: string[] } {
  const drawn: string[] = [];
  const flat: string[] = [];
  for (const n of names) (rows.some((r) => (r.weighers[n]?.score ?? 0) !== 0) ? drawn : flat).push(n);
  return { drawn, flat };
}

export function roleLabel(r: Pick<WeighedRow, "role" | "alternate">): string {
  return r.role === "chosen" ? "chosen" : r.role === "alternate" ? `alternate ${r.alternate}` : "";
}

type Datum = { label: string; row: WeighedRow; [weigher: string]: number | string | WeighedRow };

function WeightsTooltip({
  active,
  payload,
  names,
  drawn,
}: {
  active?: boolean;
  payload?: Array<{ payload: Datum }>;
  names: string[];
  drawn: string[];
}) {
  if (!active || !payload?.length) return null;
  const r = payload[0].payload.row;
  const flat = names.filter((n) => !drawn.includes(n) && r.weighers[n]);
  return (
    <div className="sc-tooltip">
      <h4>
        #{r.rank} {r.host}
        {r.role ? ` (${roleLabel(r)})` : ""}
      </h4>
      <table>
        <thead>
          <tr>
            <th scope="col">Weigher</th>
            <th scope="col">raw</th>
            <th scope="col">normalized</th>
            <th scope="col">× multiplier (from)</th>
            <th scope="col">= score</th>
          </tr>
        </thead>
        <tbody>
          {drawn.map((n) => {
            const b = r.weighers[n];
            if (!b) return null;
            return (
              <tr key={n}>
                <td>
                  <span className="sc-swatch" style={{ background: weigherColor(names, n), marginRight: 4 }} />
                  {shortWeigher(n)}
                </td>
                <td>{fmtRaw(b.raw)}</td>
                <td>{fmtNormalized(b.normalized)}</td>
                <td>
                  {fmtMultiplier(b.multiplier)}{" "}
                  <span className={b.source === "config" ? "sc-muted" : "sc-src-inline"}>({fmtSource(b.source)})</span>
                </td>
                <td>{fmtWeight(b.score)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={4}>total weight</td>
            <td>{fmtWeight(r.weight)}</td>
          </tr>
        </tfoot>
      </table>
      {flat.length > 0 && <p className="sc-tooltip-note">Adding 0 here: {flat.map(shortWeigher).join(", ")}.</p>}
    </div>
  );
}

function HostTick(props: { x?: number; y?: number; payload?: { value: string; index: number }; data: Datum[] }) {
  const { x = 0, y = 0, payload, data } = props;
  const d = payload ? data[payload.index] : undefined;
  if (!d) return null;
  const r = d.row;
  const color = r.role === "chosen" ? ROLE_COLORS.chosen : r.role === "alternate" ? ROLE_COLORS.alternate : "#1c2330";
  const tag = r.role === "chosen" ? "chosen · " : r.role === "alternate" ? `alt ${r.alternate} · ` : "";
  return (
    <text x={x - 6} y={y} dy={4} textAnchor="end" fontSize={12} fill={color} fontWeight={r.role ? 700 : 400}>
      {`${tag}#${r.rank} ${r.host}`}
    </text>
  );
}

/**
 * Stacked bar per host: each weigher's contribution (score = multiplier ×
 * normalized; negative scores stack to the left of 0), the total weight as a
 * black diamond. Chosen host and alternates are marked on the axis.
 */
export function WeightsChart({ rows, names, index }: { rows: WeighedRow[]; names: string[]; index: number }) {
  const { drawn, flat } = effectiveWeighers(names, rows);
  // below ~1000 px the plot area is narrower than the tooltip: pin it to the chart's left edge
  const [narrow, setNarrow] = useState(false);
  const data: Datum[] = rows.map((r) => {
    const d: Datum = { label: `${r.rank}:${r.host}`, row: r, weight: r.weight };
    for (const n of drawn) d[n] = r.weighers[n]?.score ?? 0;
    return d;
  });
  const height = 70 + rows.length * 26;
  const chosen = rows.find((r) => r.role === "chosen");
  const alts = rows.filter((r) => r.role === "alternate").sort((a, b) => (a.alternate ?? 0) - (b.alternate ?? 0));
  return (
    <figure
      className="sc-chart"
      aria-label={`Weights of the top ${rows.length} hosts of instance ${index + 1}${chosen ? `; chosen ${chosen.host}` : ""}${alts.length ? `; alternates ${alts.map((a) => a.host).join(", ")}` : ""}`}
    >
      <figcaption>
        Each bar is a host&apos;s weight split by weigher (score = multiplier × normalized value; hover or focus a bar
        for raw, normalized, multiplier and its source). ◆ marks the total.
      </figcaption>
      <div style={{ width: "100%", height }}>
        <AfterPaint height={height}>
          <ResponsiveContainer width="100%" height="100%" onResize={(w: number) => setNarrow(w < 1000)}>
            <ComposedChart
              data={data}
              layout="vertical"
              stackOffset="sign"
              margin={{ top: 4, right: 24, bottom: 4, left: 8 }}
              barCategoryGap={4}
            >
              <CartesianGrid horizontal={false} stroke="#e5e9f0" />
              <XAxis
                type="number"
                tick={{ fontSize: 12 }}
                domain={["auto", "auto"]}
                tickFormatter={(v: number) => fmtWeight(v).replace(/0+$/, "").replace(/\.$/, "")}
              />
              <YAxis type="category" dataKey="label" width={250} interval={0} tick={<HostTick data={data} />} />
              <ReferenceLine x={0} stroke="#8a94a6" />
              <Tooltip
                content={<WeightsTooltip names={names} drawn={drawn} />}
                cursor={{ fill: "#eef2f8" }}
                allowEscapeViewBox={{ x: false, y: true }}
                position={narrow ? { x: 4 } : undefined}
              />
              {drawn.map((n) => (
                <Bar
                  key={n}
                  dataKey={n}
                  stackId="w"
                  fill={weigherColor(names, n)}
                  name={shortWeigher(n)}
                  isAnimationActive={false}
                />
              ))}
              <Scatter dataKey="weight" fill="#1c2330" shape="diamond" name="total weight" isAnimationActive={false} />
            </ComposedChart>
          </ResponsiveContainer>
        </AfterPaint>
      </div>
      <ul className="sc-legend" aria-label="Legend">
        <li>
          <span style={{ color: ROLE_COLORS.chosen, fontWeight: 700 }}>chosen · the chosen host</span>
        </li>
        <li>
          <span style={{ color: ROLE_COLORS.alternate, fontWeight: 700 }}>alt n · alternate n</span>
        </li>
        <li>
          <span aria-hidden="true">◆</span> total weight
        </li>
        {drawn.map((n) => (
          <li key={n}>
            <span className="sc-swatch" style={{ background: weigherColor(names, n) }} aria-hidden="true" />
            {shortWeigher(n)}
          </li>
        ))}
      </ul>
      {flat.length > 0 && (
        <p className="sc-help">Adding 0 to every host shown (not drawn): {flat.map(shortWeigher).join(", ")}.</p>
      )}
    </figure>
  );
}
