"use client";

import { DataTable } from "@/components/ui/table";
/**
 * The /capacity page: a flavor mix (one flavor, or several with
 * proportions), a limit and a profile; Fill streams the engine's progress
 * from /api/capacity, then shows how many fit, where (a stacked bar per
 * AZ, tables per cell, aggregate and host), why the last boot failed and
 * where capacity is stranded.
 */
import { useRef, useState, type FormEvent } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  ResponsiveContainer,
  Scatter,
  ScatterChart,
  Tooltip,
  XAxis,
  YAxis,
} from "recharts";
import type { WorkloadOutcome } from "@/lib/capacity/ab";
import type { CapacityOptions, CapacitySummary } from "@/lib/capacity/fill";
import { validateCapacityForm } from "@/lib/capacity/schemas";
import { errorTitle } from "@/lib/runs/error-words";
import { fmtMb } from "@/components/ui/format";
import { fieldErrorsOf, postJson, postJsonLines } from "@/components/data/api";
import { useMutation } from "@tanstack/react-query";
import { controlAria } from "@/components/forms/form-kit";
import type { FieldErrors } from "@/lib/core/errors";

type Row = { flavor: string; share: string };
type Errors = FieldErrors;

const COLORS = ["#1f5fbf", "#e07b39", "#3a9d5d", "#9b59b6", "#c0392b", "#16a085", "#7f8c8d", "#d4ac0d"];
const nf = new Intl.NumberFormat("en-US");

const typedNumber = (s: string) => (s.trim() === "" ? Number.NaN : Number(s));

function FieldError({ errors, name }: { errors: Errors; name: string }) {
  const list = errors[name];
  if (!list?.length) return null;
  return (
    <p className="field-error" id={`${name}-error`} role="alert">
      {list.join(" ")}
    </p>
  );
}

export function CapacityView({ options }: { options: CapacityOptions }) {
  const [rows, setRows] = useState<Row[]>([{ flavor: options.defaultFlavor, share: "100" }]);
  const [limit, setLimit] = useState(String(options.defaultLimit));
  const [profile, setProfile] = useState(options.profiles.find((p) => p.active)?.name ?? "");
  /** "" = today's cloud, else a history snapshot's id */
  const [asOf, setAsOf] = useState("");
  const [errors, setErrors] = useState<Errors>({});
  const [progress, setProgress] = useState<{ placed: number; limit: number } | null>(null);
  const [summary, setSummary] = useState<CapacitySummary | null>(null);
  const resultRef = useRef<HTMLHeadingElement>(null);
  const [profileB, setProfileB] = useState(options.profiles.find((p) => !p.active)?.name ?? "");
  const comparison = useMutation({
    mutationFn: (input: unknown) => postJson<[WorkloadOutcome, WorkloadOutcome]>("/api/capacity/compare", input),
  });
  const ab = comparison.data ?? null;
  const comparing = comparison.isPending;
  const abErrors: Errors = comparison.error ? fieldErrorsOf(comparison.error, "the comparison failed") : {};
  const filling = useMutation({
    mutationFn: (form: unknown) =>
      postJsonLines("/api/capacity", form, (data) => {
        const line = data as { summary?: CapacitySummary; error?: string; placed: number; limit: number };
        if (line.summary) {
          setSummary(line.summary);
          setTimeout(() => resultRef.current?.focus(), 0);
        } else if (line.error) setErrors({ _form: [line.error] });
        else setProgress(line);
      }),
    onError: (e) => setErrors(fieldErrorsOf(e, "the fill failed")),
  });
  const running = filling.isPending;

  /**
   * The limit and mix as typed, with `profiles`, when the form's rules accept
   * them (an empty number is NaN, which the rules name as missing); else null,
   * and the fields show why.
   */
  const checkedInput = <P extends object>(profiles: P) => {
    const input = {
      limit: typedNumber(limit),
      ...profiles,
      ...(asOf ? { asOf: Number(asOf) } : {}),
      mix: rows.map((r) => ({ flavor: r.flavor, share: typedNumber(r.share) })),
    };
    const v = validateCapacityForm(input);
    setErrors(v.ok ? {} : v.errors);
    return v.ok ? { input, form: v.form } : null;
  };

  const compare = () => {
    const checked = checkedInput({ profile, profileB });
    if (checked) comparison.mutate(checked.input);
  };

  const setRow = (i: number, patch: Partial<Row>) =>
    setRows((old) => old.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  const applyTodayMix = () => {
    const total = options.todayMix.reduce((s, m) => s + m.instances, 0);
    if (!total) return;
    const mix = options.todayMix.map((m) => ({
      flavor: m.flavor,
      share: Math.round((m.instances / total) * 1e4) / 100,
    }));
    // Rounded percentages: the largest takes the remainder so they sum to 100.
    const rest = mix.slice(1).reduce((s, m) => s + m.share, 0);
    mix[0].share = Math.round((100 - rest) * 100) / 100;
    setRows(mix.map((m) => ({ flavor: m.flavor, share: String(m.share) })));
    setErrors({});
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const v = checkedInput({ profile: profile || undefined });
    if (!v) return;
    setSummary(null);
    setProgress({ placed: 0, limit: v.form.limit });
    filling.mutate(v.form);
  };

  const mixError = errors.mix?.join(" ");

  return (
    <>
      <form className="cap-form panel" onSubmit={onSubmit} noValidate aria-label="Capacity fill">
        <fieldset aria-describedby={mixError ? "mix-error" : undefined}>
          <legend>Flavors to boot</legend>
          {rows.map((r, i) => (
            <div className="cap-row" key={i}>
              <label>
                Flavor {rows.length > 1 ? i + 1 : ""}
                <select
                  aria-label={rows.length > 1 ? `Flavor ${i + 1}` : "Flavor"}
                  name={`mix.${i}.flavor`}
                  value={r.flavor}
                  onChange={(e) => setRow(i, { flavor: e.target.value })}
                  {...controlAria(errors[`mix.${i}.flavor`])}
                >
                  {options.flavors.map((f) => (
                    <option key={f.name} value={f.name}>
                      {f.name} ({f.vcpus} vCPU, {fmtMb(f.memory_mb)})
                    </option>
                  ))}
                </select>
              </label>
              <label>
                Share (%) {rows.length > 1 ? i + 1 : ""}
                <input
                  aria-label={rows.length > 1 ? `Share (%) ${i + 1}` : "Share (%)"}
                  name={`mix.${i}.share`}
                  inputMode="decimal"
                  value={r.share}
                  onChange={(e) => setRow(i, { share: e.target.value })}
                  {...controlAria(errors[`mix.${i}.share`])}
                  size={6}
                />
              </label>
              {rows.length > 1 ? (
                <button
                  type="button"
                  className="btn"
                  onClick={() => setRows((old) => old.filter((_, j) => j !== i))}
                  aria-label={`Remove ${r.flavor || `flavor ${i + 1}`}`}
                >
                  Remove
                </button>
              ) : null}
              <FieldError errors={errors} name={`mix.${i}.flavor`} />
              <FieldError errors={errors} name={`mix.${i}.share`} />
            </div>
          ))}
          <FieldError errors={errors} name="mix" />
          <div className="form-actions">
            <button
              type="button"
              className="btn"
              onClick={() =>
                setRows((old) => [
                  ...old,
                  { flavor: options.flavors.find((f) => !old.some((r) => r.flavor === f.name))?.name ?? "", share: "" },
                ])
              }
            >
              Add a flavor
            </button>
            <button
              type="button"
              className="btn"
              onClick={() => {
                setRows([]);
                setErrors({});
              }}
            >
              Clear the mix
            </button>
            {options.todayMix.length ? (
              <button type="button" className="btn" onClick={applyTodayMix}>
                Use today&apos;s instance mix
              </button>
            ) : null}
          </div>
        </fieldset>
        <div className="cap-row">
          <label>
            Limit (boots)
            <input
              name="limit"
              inputMode="numeric"
              value={limit}
              onChange={(e) => setLimit(e.target.value)}
              {...controlAria(errors.limit, "limit-error")}
              size={9}
            />
          </label>
          <label>
            Scheduler profile
            <select name="profile" value={profile} onChange={(e) => setProfile(e.target.value)}>
              {options.profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                  {p.active ? " (active)" : ""}
                </option>
              ))}
            </select>
          </label>
          {options.snapshots.length ? (
            <label>
              As of
              <select name="asOf" value={asOf} onChange={(e) => setAsOf(e.target.value)}>
                <option value="">today&apos;s cloud</option>
                {options.snapshots.map((s) => (
                  <option key={s.id} value={String(s.id)}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          <FieldError errors={errors} name="limit" />
          <FieldError errors={errors} name="profile" />
          <FieldError errors={errors} name="asOf" />
        </div>
        <FieldError errors={errors} name="_form" />
        <div className="form-actions">
          <button type="submit" className="btn" disabled={running}>
            {running ? "Filling…" : "Fill"}
          </button>
          {progress ? (
            <label className="cap-progress">
              Fill progress
              {/* done is full: a fill that stops early (no host left) has finished, not stalled at its share of the limit */}
              <progress
                max={progress.limit}
                value={running ? progress.placed : progress.limit}
                aria-valuetext={running ? `${progress.placed} boots` : `done: ${progress.placed} boots`}
              />
              <span className="muted small">
                {nf.format(progress.placed)} boots
                {running
                  ? ""
                  : progress.placed < progress.limit
                    ? " — done: no host took the next boot"
                    : " — done: the limit was reached"}
              </span>
            </label>
          ) : null}
        </div>
      </form>
      {summary ? <CapacityResult summary={summary} headingRef={resultRef} /> : null}
      <section className="panel cap-ab" aria-labelledby="cap-ab-h">
        <h2 id="cap-ab-h">A/B: the same workload under two profiles</h2>
        <p className="muted small">
          The flavors, proportions and limit above, filled under profile A (the one chosen above) and profile B, each on
          a throwaway copy of today&apos;s cloud.
        </p>
        <div className="cap-row">
          <label>
            Profile B
            <select value={profileB} onChange={(e) => setProfileB(e.target.value)}>
              {options.profiles.map((p) => (
                <option key={p.name} value={p.name}>
                  {p.name}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="btn" onClick={() => void compare()} disabled={comparing}>
            {comparing ? "Comparing…" : "Compare"}
          </button>
        </div>
        {Object.entries(abErrors).map(([k, v]) => (
          <p key={k} className="field-error" role="alert">
            {v.join(" ")}
          </p>
        ))}
        {ab ? <AbTable outcomes={ab} /> : null}
      </section>
    </>
  );
}

function CapacityResult({
  summary: s,
  headingRef,
}: {
  summary: CapacitySummary;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const flavors = s.perFlavor.map((f) => f.flavor);
  const chartData = s.perAz.map((a) => ({ az: a.az, ...a.byFlavor }));
  return (
    <section className="cap-result" aria-labelledby="cap-result-h">
      <h2 id="cap-result-h" tabIndex={-1} ref={headingRef}>
        Result
      </h2>
      <p className="cap-count" aria-label="Instances that fit">
        <strong>{nf.format(s.count)}</strong> × {s.flavor} fit
        {s.stopped ? "" : ` (the limit of ${nf.format(s.limit)} was reached)`}
        <span className="muted small">
          {" "}
          on {nf.format(s.hostsUsed)} of {nf.format(s.hostCount)} hosts, profile {s.profileName ?? "Nova defaults"},{" "}
          {(s.engineMs / 1000).toFixed(2)} s
        </span>
      </p>
      {s.perFlavor.length > 1 ? (
        <p>{s.perFlavor.map((f) => `${nf.format(f.count)} × ${f.flavor}`).join(", ")}</p>
      ) : null}

      <figure className="chart" aria-label="Boots per availability zone">
        <figcaption>Boots per availability zone</figcaption>
        <div style={{ width: "100%", height: Math.max(140, 40 + s.perAz.length * 34) }}>
          <ResponsiveContainer width="100%" height="100%">
            <BarChart data={chartData} layout="vertical" margin={{ top: 4, right: 16, bottom: 4, left: 4 }}>
              <CartesianGrid horizontal={false} stroke="#e3e7ee" />
              <XAxis type="number" allowDecimals={false} fontSize={11} />
              <YAxis type="category" dataKey="az" width={90} fontSize={11} interval={0} />
              <Tooltip />
              <Legend wrapperStyle={{ fontSize: 11 }} />
              {flavors.map((f, i) => (
                <Bar
                  key={f}
                  dataKey={f}
                  name={f}
                  stackId="boots"
                  fill={COLORS[i % COLORS.length]}
                  isAnimationActive={false}
                />
              ))}
            </BarChart>
          </ResponsiveContainer>
        </div>
      </figure>
      <DataTable
        label="Boots per availability zone"
        className="compact-table"
        columns={["Availability zone", ...flavors, "Total"]}
      >
        {s.perAz.map((a) => (
          <tr key={a.az}>
            <th scope="row">{a.az}</th>
            {flavors.map((f) => (
              <td key={f}>{nf.format(a.byFlavor[f] ?? 0)}</td>
            ))}
            <td>{nf.format(a.total)}</td>
          </tr>
        ))}
      </DataTable>

      <section aria-labelledby="cap-stop-h" className="cap-stop">
        <h3 id="cap-stop-h">Why the fill stopped</h3>
        {s.stopped ? (
          <>
            <p>
              Boot {nf.format(s.count + 1)}
              {s.stopped.flavor ? ` (${s.stopped.flavor})` : ""} failed: <strong>{errorTitle(s.stopped.error)}</strong>
              {s.stopped.message ? ` — ${s.stopped.message}` : ""}
            </p>
            {s.stopped.summary ? <p className="sc-diagnosis-summary">{s.stopped.summary}</p> : null}
            {s.stopped.funnel.length ? (
              <DataTable
                label="Funnel of the failing boot"
                className="compact-table"
                columns={["Stage", "In", "Out", "Why hosts fell out"]}
              >
                {s.stopped.funnel.map((f) => (
                  <tr key={f.filter}>
                    <th scope="row">{f.filter}</th>
                    <td>{nf.format(f.in)}</td>
                    <td>{nf.format(f.out)}</td>
                    <td>
                      {f.reasons
                        .map((r) => `${r.reason}: ${nf.format(r.hosts)} host${r.hosts === 1 ? "" : "s"}`)
                        .join("; ")}
                    </td>
                  </tr>
                ))}
              </DataTable>
            ) : null}
          </>
        ) : (
          <p>It did not: the limit of {nf.format(s.limit)} boots was reached; raise it to fill further.</p>
        )}
      </section>

      <section aria-labelledby="cap-frag-h">
        <h3 id="cap-frag-h">Fragmentation after the fill</h3>
        <p>
          Free in total (enabled hosts with vCPUs, after allocation ratios): {nf.format(s.fragmentation.freeVcpus)}{" "}
          vCPUs, {fmtMb(s.fragmentation.freeRamMb)} RAM and {nf.format(s.fragmentation.freeDiskGb ?? 0)} GB of disk.{" "}
          {s.stopped?.error === "NoValidHost" ? (
            <>
              The fill stopped because no host passed the filters for boot {nf.format(s.count + 1)}, so no flavor boots
              here without changing what stopped it.{" "}
              {s.fragmentation.largestFit ? (
                <>
                  By vCPU, RAM and disk alone, the largest virtual-machine flavor that one host could hold is{" "}
                  <strong>{s.fragmentation.largestFit}</strong> (bare-metal and vGPU flavors ask for their own resource
                  class).
                </>
              ) : (
                "No flavor fits on any host by vCPU, RAM and disk either."
              )}
            </>
          ) : (
            <>
              Largest virtual-machine flavor that still fits on one host (by vCPU, RAM and disk):{" "}
              <strong>{s.fragmentation.largestFit ?? "none"}</strong>.
            </>
          )}
        </p>
        {s.fragmentation.stranded.length ? (
          <figure className="chart" aria-label="Hosts with stranded capacity">
            <figcaption>
              Stranded capacity: {nf.format(s.fragmentation.stranded.length)} hosts (
              {nf.format(s.fragmentation.stranded.filter((h) => h.kind === "ram").length)} with RAM but no vCPU left,{" "}
              {nf.format(s.fragmentation.stranded.filter((h) => h.kind === "vcpu").length)} with vCPUs but under 1 GiB
              of RAM, {nf.format(s.fragmentation.stranded.filter((h) => h.kind === "disk").length)} with the vCPUs and
              RAM of a filled flavor but not its disk, {nf.format(s.fragmentation.smallestDiskGb ?? 0)} GB or more)
            </figcaption>
            <div style={{ width: "100%", height: 240 }}>
              <ResponsiveContainer width="100%" height="100%">
                <ScatterChart margin={{ top: 8, right: 16, bottom: 26, left: 12 }}>
                  <CartesianGrid stroke="#e3e7ee" />
                  <XAxis
                    type="number"
                    dataKey="freeVcpus"
                    name="free vCPUs"
                    unit=" vCPUs"
                    fontSize={11}
                    label={{ value: "free vCPUs per host", position: "insideBottom", offset: -14, fontSize: 11 }}
                  />
                  <YAxis
                    type="number"
                    dataKey="freeRamGib"
                    name="free RAM"
                    unit=" GiB"
                    fontSize={11}
                    width={86}
                    domain={[0, "auto"]}
                    allowDecimals={false}
                    label={{ value: "free RAM (GiB)", angle: -90, position: "insideLeft", offset: 0, fontSize: 11 }}
                  />
                  <Tooltip />
                  {(
                    [
                      ["ram", "RAM left, no vCPU", "#c0392b"],
                      ["vcpu", "vCPUs left, little RAM", "#e07b39"],
                      ["disk", "vCPUs and RAM left, no disk", "#2c6fbb"],
                    ] as const
                  ).map(([kind, name, fill]) => (
                    <Scatter
                      key={kind}
                      name={name}
                      data={s.fragmentation.stranded
                        .filter((h) => h.kind === kind)
                        .map((h) => ({ ...h, freeRamGib: Math.round((h.freeRamMb / 1024) * 10) / 10 }))}
                      fill={fill}
                      isAnimationActive={false}
                    />
                  ))}
                  {/* on top: below, it would sit on the x axis' title */}
                  <Legend verticalAlign="top" height={24} wrapperStyle={{ fontSize: 11 }} />
                </ScatterChart>
              </ResponsiveContainer>
            </div>
          </figure>
        ) : (
          <p className="muted">No host has capacity stranded.</p>
        )}
      </section>

      <div className="grid-2">
        <BootsTable label="Boots per cell" what="Cell" rows={s.perCell.map((c) => [c.cell, c.count])} />
        <BootsTable
          label="Boots per aggregate"
          what="Aggregate"
          rows={s.perAggregate.map((a) => [a.aggregate, a.count])}
        />
      </div>
      <details>
        <summary>
          Boots per host ({nf.format(s.hostsUsed)} hosts
          {s.hostsUsed > s.perHost.length ? `, top ${s.perHost.length}` : ""})
        </summary>
        <BootsTable label="Boots per host" what="Host" rows={s.perHost.map((h) => [h.host, h.count])} />
      </details>
    </section>
  );
}

function AbTable({ outcomes }: { outcomes: [WorkloadOutcome, WorkloadOutcome] }) {
  const rows: Array<[string, (o: WorkloadOutcome) => string]> = [
    ["Instances placed", (o) => nf.format(o.placed)],
    [
      "First failure",
      (o) =>
        o.firstFailure
          ? `boot ${nf.format(o.firstFailure.boot)}${o.firstFailure.flavor ? ` (${o.firstFailure.flavor})` : ""}: ${errorTitle(o.firstFailure.error)}`
          : "none",
    ],
    ["Hosts used", (o) => nf.format(o.hostsUsed)],
    [
      "Spread (new instances per host: hosts)",
      (o) =>
        o.spread
          .slice(0, 12)
          .map((s) => `${s.instances}: ${s.hosts}`)
          .join(", ") + (o.spread.length > 12 ? ", …" : ""),
    ],
    ["Hosts with stranded capacity", (o) => nf.format(o.strandedHosts)],
    ["Free vCPUs / RAM after", (o) => `${nf.format(o.freeVcpus)} / ${fmtMb(o.freeRamMb)}`],
  ];
  return (
    <DataTable
      label="A/B comparison"
      className="compact-table"
      columns={["Measure", <>A: {outcomes[0].label}</>, <>B: {outcomes[1].label}</>]}
    >
      {rows.map(([name, f]) => (
        <tr key={name}>
          <th scope="row">{name}</th>
          <td>{f(outcomes[0])}</td>
          <td>{f(outcomes[1])}</td>
        </tr>
      ))}
    </DataTable>
  );
}

/** Boots counted per cell, aggregate or host: one row each. */
function BootsTable({ label, what, rows }: { label: string; what: string; rows: Array<[string, number]> }) {
  return (
    <DataTable label={label} className="compact-table" columns={[what, "Boots"]}>
      {rows.map(([name, count]) => (
        <tr key={name}>
          <th scope="row">{name}</th>
          <td>{nf.format(count)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
