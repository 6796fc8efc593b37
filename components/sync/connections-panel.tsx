"use client";

/**
 * /connections: clouds Schedscope reads over their APIs. Enter a clouds.yaml
 * entry (or the fields), test it, sync with progress, see the result or what
 * failed. Secrets go to the server once and never come back.
 */
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import {
  Field,
  FormStatus,
  SelectField,
  SubmitButton,
  TextAreaField,
  useServerForm,
} from "@/components/forms/form-kit";
import type { PublicConnection } from "@/lib/sync/connections";
import type { SyncRunView, SyncStatus } from "@/lib/sync/status";
import {
  deleteConnectionAction,
  saveConnectionAction,
  saveScheduleAction,
  startSyncAction,
  testConnectionAction,
} from "@/lib/sync/actions";

const STATUS_KEY = ["sync-status"];

/** `startedAt`: when this page started a sync (poll every second from then, before its run shows). */
function useSyncStatus(startedAt: number) {
  return useQuery<SyncStatus>({
    queryKey: STATUS_KEY,
    queryFn: async () => {
      const res = await fetch("/api/sync", { cache: "no-store" });
      if (!res.ok) throw new Error(`GET /api/sync answered ${res.status}`);
      return res.json();
    },
    refetchInterval: (q) =>
      q.state.data?.running || q.state.data?.runs[0]?.status === "running" || Date.now() - startedAt < 30_000
        ? 1000
        : 15000,
  });
}

function AddConnection() {
  const [source, setSource] = useState<"yaml" | "fields">("yaml");
  const form = useServerForm(saveConnectionAction, { resetOnSuccess: true });
  return (
    <section className="panel" aria-labelledby="add-connection">
      <h2 id="add-connection">Add a connection</h2>
      <form ref={form.formRef} onSubmit={form.onSubmit} className="stack">
        <Field label="Connection name" name="name" form={form} required maxLength={100} autoComplete="off" />
        <fieldset>
          <legend>Enter it as</legend>
          <label>
            <input
              type="radio"
              name="source"
              value="yaml"
              checked={source === "yaml"}
              onChange={() => setSource("yaml")}
            />{" "}
            a clouds.yaml entry
          </label>{" "}
          <label>
            <input
              type="radio"
              name="source"
              value="fields"
              checked={source === "fields"}
              onChange={() => setSource("fields")}
            />{" "}
            fields
          </label>
        </fieldset>
        {source === "yaml" ? (
          <>
            <TextAreaField
              label="clouds.yaml entry"
              name="clouds_yaml"
              form={form}
              rows={12}
              spellCheck={false}
              hint="Paste the whole clouds.yaml (then name the cloud below) or one entry (auth:, region_name:, interface:, cacert: ...). Keystone v3, password or application credential."
            />
            <Field
              label="Cloud name in the file"
              name="cloud"
              form={form}
              autoComplete="off"
              hint="Needed when the file has several clouds."
            />
          </>
        ) : (
          <>
            <Field
              label="Auth URL"
              name="auth_url"
              form={form}
              placeholder="https://keystone.example:5000/v3"
              autoComplete="off"
            />
            <SelectField label="Auth type" name="auth_type" form={form} defaultValue="password">
              <option value="password">password</option>
              <option value="v3applicationcredential">application credential</option>
            </SelectField>
            <Field label="Username" name="username" form={form} autoComplete="off" />
            <Field label="Password" name="password" type="password" form={form} autoComplete="new-password" />
            <Field label="User domain" name="user_domain_name" form={form} defaultValue="Default" autoComplete="off" />
            <Field label="Project" name="project_name" form={form} autoComplete="off" />
            <Field
              label="Project domain"
              name="project_domain_name"
              form={form}
              defaultValue="Default"
              autoComplete="off"
            />
            <Field label="Application credential ID" name="application_credential_id" form={form} autoComplete="off" />
            <Field
              label="Application credential secret"
              name="application_credential_secret"
              type="password"
              form={form}
              autoComplete="new-password"
            />
            <Field label="Region" name="region_name" form={form} autoComplete="off" />
            <SelectField label="Interface" name="interface" form={form} defaultValue="public">
              <option value="public">public</option>
              <option value="internal">internal</option>
              <option value="admin">admin</option>
            </SelectField>
            <TextAreaField label="CA certificate (PEM)" name="cacert" form={form} rows={4} spellCheck={false} />
          </>
        )}
        <SubmitButton form={form}>Save connection</SubmitButton>
        <FormStatus
          form={form}
          shownFields={[
            "name",
            "clouds_yaml",
            "cloud",
            "auth_url",
            "username",
            "password",
            "application_credential_secret",
            "cacert",
          ]}
        />
      </form>
    </section>
  );
}

function ConnectionRow({ c, busy, onStarted }: { c: PublicConnection; busy: boolean; onStarted: () => void }) {
  const qc = useQueryClient();
  const test = useServerForm(testConnectionAction);
  const sync = useServerForm(startSyncAction, {
    onSuccess: () => {
      onStarted();
      qc.invalidateQueries({ queryKey: STATUS_KEY });
    },
  });
  const remove = useServerForm(deleteConnectionAction);
  const s = c.settings;
  return (
    <li className="panel" aria-labelledby={`conn-${c.id}`}>
      <h3 id={`conn-${c.id}`}>{c.name}</h3>
      <dl className="facts">
        <dt>Auth URL</dt>
        <dd>
          <code>{String(s.auth_url)}</code>
        </dd>
        <dt>As</dt>
        <dd>
          {s.application_credential_id
            ? `application credential ${String(s.application_credential_id)}`
            : `${String(s.username ?? s.user_id ?? "?")} in project ${String(s.project_name ?? s.project_id ?? "?")}`}
        </dd>
        <dt>Region / interface</dt>
        <dd>
          {String(s.region_name ?? "any")} / {String(s.interface ?? "public")}
        </dd>
        <dt>Secret</dt>
        <dd>{c.secretsSet.length ? `${c.secretsSet.join(", ")} stored (encrypted)` : "none stored: enter it again"}</dd>
      </dl>
      <div className="row-actions">
        <form ref={test.formRef} onSubmit={test.onSubmit}>
          <input type="hidden" name="id" value={c.id} />
          <SubmitButton form={test} className="btn" pendingText="Testing…" aria-label={`Test ${c.name}`}>
            Test
          </SubmitButton>
          <FormStatus form={test} shownFields={[]} />
        </form>
        <form ref={sync.formRef} onSubmit={sync.onSubmit}>
          <input type="hidden" name="id" value={c.id} />
          <SubmitButton form={sync} disabled={busy} pendingText="Starting…" aria-label={`Sync ${c.name} now`}>
            Sync now
          </SubmitButton>
          <FormStatus form={sync} shownFields={[]} />
        </form>
        <form ref={remove.formRef} onSubmit={remove.onSubmit}>
          <input type="hidden" name="id" value={c.id} />
          <SubmitButton form={remove} className="btn danger" pendingText="Removing…" aria-label={`Remove ${c.name}`}>
            Remove
          </SubmitButton>
          <FormStatus form={remove} shownFields={[]} />
        </form>
      </div>
    </li>
  );
}

function Progress({ run }: { run: SyncRunView }) {
  const p = run.progress ?? {};
  const done = typeof p.done === "number" ? p.done : undefined;
  const total = typeof p.total === "number" ? p.total : undefined;
  return (
    <div>
      <p>
        Syncing <strong>{run.connectionName}</strong> (started by {run.startedBy}): reading{" "}
        <strong>{String(p.step ?? "…")}</strong>
        {done !== undefined ? ` — ${done}${total !== undefined ? ` of ${total}` : ""}` : ""}
      </p>
      <progress aria-label="Sync progress" max={total ?? undefined} value={total !== undefined ? done : undefined} />
    </div>
  );
}

function RunResult({ run }: { run: SyncRunView }) {
  if (run.status === "failed" || run.status === "interrupted")
    return (
      <div role="alert" className="form-status bad">
        <p>
          Sync of {run.connectionName} {run.status === "failed" ? "failed" : "was interrupted (its process ended)"}:{" "}
          {run.error?.message ?? ""}
        </p>
        {run.error?.details?.length ? (
          <ul>
            {run.error.details.map((d) => (
              <li key={d}>{d}</li>
            ))}
          </ul>
        ) : null}
      </div>
    );
  const r = run.result ?? {};
  const n = (k: string) => String(r[k] ?? 0);
  return (
    <div>
      <table>
        <caption>Last sync of {run.connectionName}</caption>
        <tbody>
          {[
            ["Hosts", "hosts"],
            ["Aggregates", "aggregates"],
            ["Flavors", "flavors"],
            ["Images", "images"],
            ["Server groups", "serverGroups"],
            ["Servers", "instances"],
            ["API requests", "requests"],
            ["Seconds", "seconds"],
          ].map(([label, k]) => (
            <tr key={k}>
              <th scope="row">{label}</th>
              <td>{n(k)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {Array.isArray(r.notes) ? (
        <ul aria-label="What the APIs do not give">
          {(r.notes as string[]).map((t) => (
            <li key={t}>{t}</li>
          ))}
        </ul>
      ) : null}
      <p>
        <a href="/hosts">See the hosts</a>
      </p>
    </div>
  );
}

function Schedule({
  connections,
  minutes,
  connectionId,
}: {
  connections: PublicConnection[];
  minutes: number;
  connectionId: number | null;
}) {
  const form = useServerForm(saveScheduleAction);
  return (
    <section className="panel" aria-labelledby="schedule-title">
      <h2 id="schedule-title">Scheduled sync</h2>
      <form ref={form.formRef} onSubmit={form.onSubmit} className="stack">
        <SelectField label="Connection" name="id" form={form} defaultValue={connectionId ?? connections[0]?.id}>
          {connections.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </SelectField>
        <Field
          label="Every (minutes)"
          name="minutes"
          type="number"
          min={0}
          max={10080}
          defaultValue={minutes}
          form={form}
          hint="0: off. One sync at a time across every instance of Schedscope on this database."
        />
        <SubmitButton form={form}>Save schedule</SubmitButton>
        <FormStatus form={form} shownFields={["id", "minutes"]} />
      </form>
    </section>
  );
}

export function ConnectionsPanel({
  connections,
  schedule,
}: {
  connections: PublicConnection[];
  schedule: { connectionId: number; minutes: number } | null;
}) {
  const [startedAt, setStartedAt] = useState(0);
  const status = useSyncStatus(startedAt);
  const runs = status.data?.runs ?? [];
  const current = runs[0];
  const running = !!status.data?.running || current?.status === "running";
  return (
    <>
      <section className="panel" aria-labelledby="sync-title" aria-live="polite">
        <h2 id="sync-title">Sync</h2>
        {status.isError ? <p role="alert">Could not read the sync status: {String(status.error)}</p> : null}
        {current && current.status === "running" ? <Progress run={current} /> : null}
        {current && current.status !== "running" ? <RunResult run={current} /> : null}
        {!current ? <p>No sync yet.</p> : null}
      </section>
      <section aria-labelledby="connections-title">
        <h2 id="connections-title">Connections</h2>
        {connections.length ? (
          <ul className="plain-list">
            {connections.map((c) => (
              <ConnectionRow key={c.id} c={c} busy={running} onStarted={() => setStartedAt(Date.now())} />
            ))}
          </ul>
        ) : (
          <p>No connection yet: add one below.</p>
        )}
      </section>
      <AddConnection />
      {connections.length ? (
        <Schedule
          connections={connections}
          minutes={schedule?.minutes ?? 0}
          connectionId={schedule?.connectionId ?? null}
        />
      ) : null}
      {runs.length > 1 ? (
        <section className="panel" aria-labelledby="runs-title">
          <h2 id="runs-title">Recent syncs</h2>
          <table>
            <thead>
              <tr>
                <th scope="col">started</th>
                <th scope="col">connection</th>
                <th scope="col">by</th>
                <th scope="col">status</th>
                <th scope="col">what failed</th>
              </tr>
            </thead>
            <tbody>
              {runs.map((r) => (
                <tr key={r.id}>
                  <td>
                    <time dateTime={r.startedAt}>{r.startedAt.slice(0, 19).replace("T", " ")} UTC</time>
                  </td>
                  <td>{r.connectionName}</td>
                  <td>{r.startedBy}</td>
                  <td>{r.status}</td>
                  <td>{r.error?.message ?? ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
    </>
  );
}
