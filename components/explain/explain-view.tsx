"use client";

/**
 * The /explain page: upload Nova's logs (several files, plain or gzip) with
 * a progress bar, list every scheduling call found, and for the chosen call
 * show what Nova logged beside Schedscope's replay: each filter with the
 * hosts it left and the hosts it removed with why, the weighed hosts, the
 * selection, every disagreement with its likely cause, and for an INFO-only
 * log what DEBUG would add. Then replay the log's calls under another
 * profile or release. Every log text is shown as text.
 */
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useRef, useState } from "react";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { controlAria } from "@/components/forms/form-kit";
import { DataTable } from "@/components/ui/table";
import type { ExplainResult } from "@/lib/nova-logs/upload";
import type { CallView } from "@/lib/nova-logs/view";

const MAX_BYTES = 200 * 1024 * 1024;
const mb = (n: number) => `${(n / 1048576).toFixed(1)} MB`;
type Errors = Record<string, string[]>;

class UploadRefused extends Error {
  constructor(readonly fieldErrors: Errors) {
    super(Object.values(fieldErrors).flat().join("; "));
  }
}

type Progress = { phase: "sending" | "reading"; loaded: number; total: number } | null;

/** POST the form with upload progress, then read the JSON lines as they come. */
function send(form: FormData, onProgress: (p: Progress) => void): Promise<ExplainResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", "/api/explain");
    let seen = 0;
    let result: ExplainResult | null = null;
    let failure: string | null = null;
    const readLines = () => {
      if (xhr.status !== 200) return;
      const text = xhr.responseText;
      let nl = text.indexOf("\n", seen);
      while (nl >= 0) {
        const line = JSON.parse(text.slice(seen, nl)) as {
          type: string;
          read?: number;
          total?: number | null;
          error?: string;
        };
        seen = nl + 1;
        if (line.type === "progress") onProgress({ phase: "reading", loaded: line.read ?? 0, total: line.total ?? 0 });
        else if (line.type === "result") result = line as unknown as ExplainResult;
        else if (line.type === "error") failure = line.error ?? "the logs could not be explained";
        nl = text.indexOf("\n", seen);
      }
    };
    xhr.upload.onprogress = (e) => onProgress({ phase: "sending", loaded: e.loaded, total: e.total });
    xhr.onprogress = readLines;
    xhr.onload = () => {
      if (xhr.status !== 200) {
        try {
          const body = JSON.parse(xhr.responseText) as { error?: string; fieldErrors?: Errors };
          reject(new UploadRefused(body.fieldErrors ?? { logs: [body.error ?? `the server answered ${xhr.status}`] }));
        } catch {
          reject(new UploadRefused({ logs: [`the server answered ${xhr.status} without a reason`] }));
        }
        return;
      }
      readLines();
      if (result) resolve(result);
      else reject(new UploadRefused({ logs: [failure ?? "the server's answer ended early"] }));
    };
    xhr.onerror = () => reject(new UploadRefused({ logs: ["the upload failed (network error)"] }));
    xhr.send(form);
  });
}

function errorsOf(e: unknown): Errors {
  return e instanceof UploadRefused ? e.fieldErrors : { logs: [(e as Error).message] };
}

function FieldError({ errors, name }: { errors: Errors; name: string }) {
  const list = errors[name];
  if (!list?.length) return null;
  return (
    <p className="field-error" id={`${name}-error`} role="alert">
      {list.join(" ")}
    </p>
  );
}

export interface ExplainOptions {
  profiles: Array<{ name: string; active: boolean }>;
  releases: readonly string[];
}

export function ExplainView({ options }: { options: ExplainOptions }) {
  const [files, setFiles] = useState<File[]>([]);
  const [progress, setProgress] = useState<Progress>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [profile, setProfile] = useState(
    options.profiles.find((p) => !p.active)?.name ?? options.profiles[0]?.name ?? "",
  );
  const [release, setRelease] = useState("");
  const [clientErrors, setClientErrors] = useState<Errors>({});
  const detailRef = useRef<HTMLHeadingElement>(null);

  const formFor = (mode: "explain" | "period") => {
    const form = new FormData();
    for (const f of files) form.append("logs", f, f.name);
    form.append("mode", mode);
    if (mode === "period") {
      form.append("profile", profile);
      if (release) form.append("nova_release", release);
    }
    return form;
  };
  const explain = useMutation({
    mutationFn: () => send(formFor("explain"), setProgress),
    onSettled: () => setProgress(null),
    onSuccess: (r) => setSelected(r.calls.find((c) => !c.agree || c.logged.error)?.id ?? r.calls[0]?.id ?? null),
  });
  const period = useMutation({
    mutationFn: () => send(formFor("period"), setProgress),
    onSettled: () => setProgress(null),
  });

  const onUpload = (e: FormEvent) => {
    e.preventDefault();
    const size = files.reduce((s, f) => s + f.size, 0);
    if (!files.length) return setClientErrors({ logs: ["logs: choose at least one log file"] });
    if (size > MAX_BYTES)
      return setClientErrors({
        logs: [
          `logs: ${mb(size)} chosen; an upload may be at most ${mb(MAX_BYTES)} (read larger logs with npm run -s explain)`,
        ],
      });
    setClientErrors({});
    period.reset();
    explain.mutate();
  };

  const errors: Errors = { ...clientErrors, ...(explain.error ? errorsOf(explain.error) : {}) };
  const periodErrors: Errors = period.error ? errorsOf(period.error) : {};
  const result = explain.data ?? null;
  const call = result?.calls.find((c) => c.id === selected) ?? null;
  const busy = explain.isPending || period.isPending;

  return (
    <>
      <form className="panel" aria-labelledby="upload-title" onSubmit={onUpload} noValidate>
        <h2 id="upload-title">Nova&apos;s logs</h2>
        <label className="field">
          <span>
            Log files (nova-scheduler, placement-api, nova-conductor; plain, gzip or journalctl output; at most 200 MB)
          </span>
          <input
            type="file"
            name="logs"
            multiple
            disabled={busy}
            {...controlAria(errors.logs, "logs-error")}
            onChange={(e) => {
              setFiles([...(e.currentTarget.files ?? [])]);
              setClientErrors({});
              explain.reset();
              period.reset();
            }}
          />
        </label>
        <FieldError errors={errors} name="logs" />
        <button type="submit" className="btn primary" disabled={busy}>
          Read and explain
        </button>
      </form>

      {progress ? (
        <div role="status" className="import-progress">
          <p>
            {progress.phase === "sending" ? "Uploading" : "Reading the logs"}: {mb(progress.loaded)}
            {progress.total ? ` of ${mb(progress.total)}` : ""}
          </p>
          <progress
            aria-label={progress.phase === "sending" ? "Upload progress" : "Reading progress"}
            max={progress.total || 1}
            value={progress.loaded}
          />
        </div>
      ) : busy ? (
        <div role="status" className="import-progress">
          <p>Replaying each scheduling call…</p>
          <progress aria-label="Replay progress" />
        </div>
      ) : null}

      {result ? (
        <>
          <ReadSummary result={result} />
          <CallList
            result={result}
            selected={selected}
            onSelect={(id) => {
              setSelected(id);
              setTimeout(() => detailRef.current?.focus(), 0);
            }}
          />
          {call ? <CallDetail call={call} headingRef={detailRef} /> : null}
          <form
            className="panel"
            aria-labelledby="period-title"
            onSubmit={(e) => {
              e.preventDefault();
              period.mutate();
            }}
          >
            <h2 id="period-title">Replay the period under another profile</h2>
            <p>
              Every call of these logs, in order, scheduled again on a copy of the cloud with the chosen profile (and
              release); each placement is kept before the next call. Nothing is written.
            </p>
            <label className="field">
              <span>Profile</span>
              <select
                name="profile"
                value={profile}
                onChange={(e) => setProfile(e.target.value)}
                {...controlAria(periodErrors.profile, "profile-error")}
              >
                {options.profiles.map((p) => (
                  <option key={p.name} value={p.name}>
                    {p.name}
                    {p.active ? " (active)" : ""}
                  </option>
                ))}
              </select>
            </label>
            <FieldError errors={periodErrors} name="profile" />
            <label className="field">
              <span>Nova release</span>
              <select name="nova_release" value={release} onChange={(e) => setRelease(e.target.value)}>
                <option value="">the profile&apos;s</option>
                {options.releases.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </label>
            <FieldError errors={periodErrors} name="nova_release" />
            <FieldError errors={periodErrors} name="logs" />
            <button type="submit" className="btn primary" disabled={busy || !profile}>
              Replay the period
            </button>
          </form>
          {period.data?.period ? <PeriodView period={period.data.period} /> : null}
        </>
      ) : null}
    </>
  );
}

function ReadSummary({ result }: { result: ExplainResult }) {
  const s = result.stats;
  return (
    <section className="panel" aria-labelledby="read-title">
      <h2 id="read-title">What was read</h2>
      <p>
        {s.files} file(s), {mb(s.bytes)}, {s.lines.toLocaleString("en-US")} lines:{" "}
        {result.total.toLocaleString("en-US")} scheduling call(s), {result.agreeing} agreeing with the replay. Skipped:{" "}
        {s.unparsed} line(s) in no known format, {s.tooLong} longer than 1 MB, {s.binary} binary.
      </p>
      {s.refused.length ? (
        <ul className="error-list" aria-label="Files not read to the end">
          {s.refused.map((r) => (
            <li key={r.file}>
              {r.file}: {r.reason}
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}

function CallList({
  result,
  selected,
  onSelect,
}: {
  result: ExplainResult;
  selected: string | null;
  onSelect: (id: string) => void;
}) {
  if (!result.calls.length)
    return <p className="empty">No scheduling call in these logs (is it nova-scheduler&apos;s log?).</p>;
  return (
    <DataTable
      caption={`Scheduling calls${result.total > result.calls.length ? ` (the first ${result.calls.length} of ${result.total})` : ""}`}
      columns={["Time", "Request", "Instances", "Nova", "Replay", "Agree", { label: "Show", hidden: true }]}
    >
      {result.calls.map((c) => (
        <tr key={c.id} aria-selected={c.id === selected}>
          <td>{c.started ?? "—"}</td>
          <td>
            <code>{c.requestId}</code>
            {c.attempt > 1 ? ` (attempt ${c.attempt})` : ""}
          </td>
          <td className="num">{c.instanceUuids.length}</td>
          <td>{c.logged.error ?? (c.logged.selected.join(", ") || "—")}</td>
          <td>{c.replayed ? (c.replayed.error ?? c.replayed.selected.join(", ")) : "not replayed"}</td>
          <td>{c.agree ? "yes" : "no"}</td>
          <td>
            <button type="button" className="btn" onClick={() => onSelect(c.id)} aria-label={`Explain ${c.requestId}`}>
              Explain
            </button>
          </td>
        </tr>
      ))}
    </DataTable>
  );
}

const CAUSES: Record<string, string> = {
  filter_list: "different filter list",
  state: "the hosts' state differed",
  chance: "chance",
  not_simulated: "not simulated",
  weights: "different weights",
  request: "request not rebuilt",
  log: "INFO log",
};

function CallDetail({ call, headingRef }: { call: CallView; headingRef: React.RefObject<HTMLHeadingElement | null> }) {
  const replayFilters = call.replayed?.funnel.filter((f) => f.stage === "filter") ?? [];
  const names = [...new Set([...call.logged.filters.map((f) => f.name), ...replayFilters.map((f) => f.filter)])];
  const chart = names.map((name) => ({
    name,
    Nova: call.logged.filters.find((f) => f.name === name)?.left ?? null,
    Replay: replayFilters.find((f) => f.filter === name)?.out ?? null,
  }));
  return (
    <section className="panel" aria-labelledby="call-title">
      <h2 id="call-title" ref={headingRef} tabIndex={-1}>
        Request {call.requestId}
        {call.attempt > 1 ? `, attempt ${call.attempt}` : ""}
      </h2>
      <p>
        {call.instanceUuids.length} instance(s), read from {call.source}; replayed on {call.cloudLabel}.{" "}
        {call.debug ? "DEBUG lines present." : "INFO lines only."}
      </p>
      {call.differences.length ? (
        <ul aria-label="Differences" className="notice">
          {call.differences.map((d, i) => (
            <li key={i}>
              <strong>{CAUSES[d.cause] ?? d.cause}:</strong> {d.message}
            </li>
          ))}
        </ul>
      ) : (
        <p className="notice good">The replay agrees with what Nova logged.</p>
      )}
      {chart.length ? (
        <figure aria-label="Hosts left after each filter, Nova and replay">
          <ResponsiveContainer width="100%" height={Math.max(160, chart.length * 34)}>
            <BarChart data={chart} layout="vertical" margin={{ left: 40 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis type="number" allowDecimals={false} />
              <YAxis type="category" dataKey="name" width={220} />
              <Tooltip />
              <Legend />
              <Bar dataKey="Nova" fill="#1f5fbf" />
              <Bar dataKey="Replay" fill="#e07b39" />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      ) : null}
      <div className="explain-sides">
        <DataTable
          caption="What Nova logged"
          columns={["Filter", { label: "Hosts left", num: true }, "Removed (Nova's words)"]}
        >
          {call.logged.startedWith !== null ? (
            <tr>
              <td>start</td>
              <td className="num">{call.logged.startedWith}</td>
              <td />
            </tr>
          ) : null}
          {call.logged.filters.map((f) => (
            <tr key={f.name}>
              <td>{f.name}</td>
              <td className="num">{f.left}</td>
              <td>
                {f.removed.length ? (
                  <ul>
                    {f.removed.map((r) => (
                      <li key={r.host}>
                        {r.host}
                        {r.reason ? `: ${r.reason}` : ""}
                      </li>
                    ))}
                    {f.removedCount > f.removed.length ? <li>and {f.removedCount - f.removed.length} more</li> : null}
                  </ul>
                ) : (
                  "—"
                )}
              </td>
            </tr>
          ))}
        </DataTable>
        {call.replayed ? (
          <DataTable
            caption="Schedscope's replay"
            columns={["Step", { label: "In", num: true }, { label: "Out", num: true }, "Removed and why"]}
          >
            {call.replayed.funnel.map((f) => (
              <tr key={`${f.stage}-${f.filter}`}>
                <td>{f.filter}</td>
                <td className="num">{f.in}</td>
                <td className="num">{f.out}</td>
                <td>
                  {f.removed.length ? (
                    <ul>
                      {f.removed.map((r) => (
                        <li key={r.host}>
                          {r.host}
                          {r.reason ? `: ${r.reason}` : ""}
                        </li>
                      ))}
                      {f.removedCount > f.removed.length ? <li>and {f.removedCount - f.removed.length} more</li> : null}
                    </ul>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </DataTable>
        ) : (
          <p>
            Not replayed: the request could not be rebuilt (upload placement-api&apos;s log beside the
            scheduler&apos;s).
          </p>
        )}
      </div>
      <dl className="explain-outcome">
        <dt>Nova selected</dt>
        <dd>
          {call.logged.error
            ? `${call.logged.error}${call.logged.errorDetail ? ` (${call.logged.errorDetail})` : ""}`
            : call.logged.selected.join(", ") || "—"}
        </dd>
        <dt>The replay selected</dt>
        <dd>
          {call.replayed
            ? call.replayed.error
              ? `${call.replayed.error}${call.replayed.summary ? `: ${call.replayed.summary}` : ""}`
              : `${call.replayed.selected.join(", ")}${call.replayed.alternates.length ? ` (alternates ${call.replayed.alternates.join(", ")})` : ""}`
            : "—"}
        </dd>
        {call.replayed?.placementQuery ? (
          <>
            <dt>Placement query (replay)</dt>
            <dd>
              <code>{call.replayed.placementQuery}</code>
            </dd>
          </>
        ) : null}
      </dl>
      {call.logged.weighed.length || call.replayed?.weighed.length ? (
        <div className="explain-sides">
          <DataTable caption="Weighed by Nova" columns={["Host", { label: "Weight", num: true }]}>
            {call.logged.weighed.map((w) => (
              <tr key={w.host}>
                <td>{w.host}</td>
                <td className="num">{w.weight}</td>
              </tr>
            ))}
          </DataTable>
          <DataTable
            caption="Weighed by the replay"
            columns={["Host", { label: "Weight", num: true }, "Each weigher's share"]}
          >
            {(call.replayed?.weighed ?? []).map((w) => (
              <tr key={w.host}>
                <td>{w.host}</td>
                <td className="num">{w.weight}</td>
                <td>
                  {w.weighers
                    .filter((x) => x.score !== 0)
                    .map((x) => `${x.name} ${x.score.toPrecision(3)} (×${x.multiplier})`)
                    .join(", ") || "all 0"}
                </td>
              </tr>
            ))}
          </DataTable>
        </div>
      ) : null}
      {call.infoOnly ? (
        <section aria-labelledby="info-title">
          <h3 id="info-title">From INFO lines alone</h3>
          <p>{call.infoOnly.logged}</p>
          {call.infoOnly.replay ? <p>The replay adds: {call.infoOnly.replay}</p> : null}
          <p>DEBUG would add:</p>
          <ul>
            {call.infoOnly.debugWouldAdd.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
          <p>
            To log DEBUG from the scheduler&apos;s loggers only (the rest of nova-scheduler stays at INFO), set in the
            scheduler&apos;s nova.conf and restart it:
          </p>
          <pre aria-label="default_log_levels setting">{call.infoOnly.setting}</pre>
        </section>
      ) : null}
    </section>
  );
}

function PeriodView({ period }: { period: NonNullable<ExplainResult["period"]> }) {
  return (
    <section className="panel" aria-labelledby="period-result-title">
      <h2 id="period-result-title">
        The period under {period.profile}
        {period.release ? `, Nova ${period.release}` : ""}
      </h2>
      <p>
        {period.placed} instance(s) placed, {period.failed} would have failed, {period.moved} on another host than Nova
        chose; {period.hostsUsed} host(s) used. Afterwards: {period.freeVcpus.toLocaleString("en-US")} vCPUs and{" "}
        {mb(period.freeRamMb * 1048576)} RAM free, {period.stranded} host(s) with RAM too small for the smallest flavor.
      </p>
      {period.capacity.length ? (
        <figure aria-label="Free capacity per flavor after the period">
          <ResponsiveContainer width="100%" height={Math.max(140, period.capacity.length * 32)}>
            <BarChart data={period.capacity} layout="vertical" margin={{ left: 40 }}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis type="number" allowDecimals={false} />
              <YAxis type="category" dataKey="flavor" width={160} />
              <Tooltip />
              <Bar dataKey="slots" name="more instances that fit" fill="#3a9d5d" />
            </BarChart>
          </ResponsiveContainer>
        </figure>
      ) : null}
      <DataTable caption="Each call, in order" columns={["Time", "Request", "Flavor", "Nova", "Under this profile"]}>
        {period.steps.map((s) => (
          <tr key={`${s.requestId}-${s.attempt}`}>
            <td>{Number.isFinite(s.started) ? new Date(s.started).toISOString() : "—"}</td>
            <td>
              <code>{s.requestId}</code>
            </td>
            <td>{s.flavor ?? "—"}</td>
            <td>{s.real.error ?? s.real.hosts.join(", ")}</td>
            <td>
              {s.replayed
                ? s.replayed.error
                  ? `${s.replayed.error}`
                  : s.replayed.hosts.join(", ")
                : (s.skipped ?? "—")}
            </td>
          </tr>
        ))}
      </DataTable>
    </section>
  );
}
