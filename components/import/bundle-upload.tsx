"use client";

import { DataTable } from "@/components/ui/table";
/**
 * Upload an OpenStack bundle (.tar.gz from scripts/collect-openstack.sh):
 * send it with upload progress, show what would change, and replace the
 * cloud only when the operator confirms (the same file is sent again with
 * the sha256 the preview returned).
 */
import { NovaConfReport } from "@/components/config/nova-conf-report";
import { useRouter } from "next/navigation";
import { useRef, useState } from "react";
import type { UploadAnswer } from "@/lib/openstack/upload";

const MAX_BYTES = 200 * 1024 * 1024;

type Preview = Extract<UploadAnswer, { mode: "preview" }>;
type Phase =
  | { step: "idle" }
  | { step: "sending"; what: "preview" | "apply"; loaded: number; total: number }
  | { step: "working"; what: "preview" | "apply"; since: number }
  | { step: "preview"; answer: Preview }
  | { step: "failed"; errors: string[]; warnings: string[]; releaseChoice?: readonly string[] };

function send(
  file: File,
  url: string,
  onProgress: (loaded: number, total: number) => void,
  onUploaded: () => void,
): Promise<UploadAnswer> {
  return new Promise((resolve) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", url);
    xhr.setRequestHeader("Content-Type", "application/gzip");
    xhr.upload.onprogress = (e) => onProgress(e.loaded, e.lengthComputable ? e.total : file.size);
    xhr.upload.onload = onUploaded;
    xhr.onload = () => {
      try {
        resolve(JSON.parse(xhr.responseText) as UploadAnswer);
      } catch {
        resolve(failed([`the server answered ${xhr.status} without a result`]));
      }
    };
    xhr.onerror = () => resolve(failed(["the upload failed (network error)"]));
    xhr.send(file);
  });
}

const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;

/** A refusal made here (network error, an unreadable answer), in the server's shape. */
const failed = (errors: string[]): UploadAnswer => ({
  ok: false,
  error: errors.join("; "),
  fieldErrors: { bundle: errors },
  warnings: [],
});

export function BundleUpload() {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: "idle" });
  const [, tick] = useState(0);
  // the Nova release the operator chose for a nova.conf that names none (sent with preview and apply)
  const [release, setRelease] = useState("");
  const [choice, setChoice] = useState("");

  async function run(what: "preview" | "apply", sha?: string, chosen = release) {
    if (!file) return;
    if (file.size > MAX_BYTES) {
      setPhase({
        step: "failed",
        errors: [`${file.name}: is ${mb(file.size)}; a bundle may be at most ${mb(MAX_BYTES)}. Nothing was written.`],
        warnings: [],
      });
      return;
    }
    setPhase({ step: "sending", what, loaded: 0, total: file.size });
    const timer = setInterval(() => tick((n) => n + 1), 500);
    const url = `/api/import/openstack?mode=${what}${sha ? `&sha256=${sha}` : ""}${chosen ? `&nova_release=${encodeURIComponent(chosen)}` : ""}`;
    const answer = await send(
      file,
      url,
      (loaded, total) => setPhase({ step: "sending", what, loaded, total }),
      () => setPhase({ step: "working", what, since: Date.now() }),
    );
    clearInterval(timer);
    if (!answer.ok)
      setPhase({
        step: "failed",
        errors: answer.fieldErrors?.bundle ?? [answer.error],
        warnings: answer.warnings ?? [],
        releaseChoice: answer.releaseChoice,
      });
    else if (answer.mode === "preview") setPhase({ step: "preview", answer });
    else router.push("/hosts");
  }

  const busy = phase.step === "sending" || phase.step === "working";
  return (
    <div className="import">
      <form
        className="panel"
        aria-labelledby="upload-title"
        onSubmit={(e) => {
          e.preventDefault();
          void run("preview");
        }}
      >
        <h2 id="upload-title">1. Upload the bundle</h2>
        <label className="field">
          <span>OpenStack bundle (.tar.gz, at most 200 MB)</span>
          <input
            ref={input}
            type="file"
            name="bundle"
            accept=".tar.gz,.tgz,application/gzip"
            disabled={busy}
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setPhase({ step: "idle" });
              setRelease("");
              setChoice("");
            }}
          />
        </label>
        <button type="submit" className="btn primary" disabled={!file || busy}>
          Upload and preview
        </button>
      </form>

      {phase.step === "sending" ? (
        <div role="status" className="import-progress">
          <p>
            Uploading {file?.name}: {mb(phase.loaded)} of {mb(phase.total)}
          </p>
          <progress aria-label="Upload progress" max={phase.total || 1} value={phase.loaded} />
        </div>
      ) : null}
      {phase.step === "working" ? (
        <div role="status" className="import-progress">
          <p>
            {phase.what === "preview"
              ? "Checking the bundle and comparing it with the cloud"
              : "Replacing the cloud in one transaction"}
            … {Math.floor((Date.now() - phase.since) / 1000)} s
          </p>
          <progress aria-label={phase.what === "preview" ? "Checking progress" : "Import progress"} />
        </div>
      ) : null}

      {phase.step === "failed" ? (
        <div role="alert" className="notice bad">
          <p>
            <strong>The bundle was not imported.</strong> Nothing was written.
          </p>
          <ul className="error-list">
            {phase.errors.slice(0, 100).map((e) => (
              <li key={e}>{e}</li>
            ))}
          </ul>
          {phase.errors.length > 100 ? <p>… and {phase.errors.length - 100} more</p> : null}
        </div>
      ) : null}
      {phase.step === "failed" && phase.releaseChoice?.length ? (
        <form
          className="panel"
          aria-labelledby="release-title"
          onSubmit={(e) => {
            e.preventDefault();
            if (!choice) return;
            setRelease(choice);
            void run("preview", undefined, choice);
          }}
        >
          <h2 id="release-title">Which Nova release does this cloud run?</h2>
          <p>
            Its nova.conf is valid only in a release later than Zed, and it names none. Choose the release the cloud
            runs: the imported profile keeps it, and every answer is that release&apos;s.
          </p>
          <label className="field">
            <span>Nova release</span>
            <select value={choice} onChange={(e) => setChoice(e.target.value)}>
              <option value="">choose…</option>
              {phase.releaseChoice.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="btn primary" disabled={!choice}>
            Preview as this release
          </button>
        </form>
      ) : null}

      {phase.step === "preview" ? (
        <PreviewView
          answer={phase.answer}
          release={release}
          onConfirm={() => void run("apply", phase.answer.sha256)}
          onCancel={() => {
            setPhase({ step: "idle" });
            if (input.current) input.current.value = "";
            setFile(null);
          }}
        />
      ) : null}
    </div>
  );
}

function Names({ label, names, count }: { label: string; names: string[]; count: number }) {
  if (!count) return null;
  return (
    <p className="small">
      <strong>{label}:</strong> {names.join(", ")}
      {count > names.length ? `, … (${count} in all)` : ""}
    </p>
  );
}

function PreviewView({
  answer,
  release,
  onConfirm,
  onCancel,
}: {
  answer: Preview;
  /** the Nova release chosen on import ("" : none chosen) */
  release: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const p = answer.preview;
  return (
    <section className="panel" aria-labelledby="preview-title">
      <h2 id="preview-title">2. What changes</h2>
      <p>
        The bundle holds {p.counts.hosts} hosts, {p.counts.aggregates} aggregates, {p.counts.flavors} flavors,{" "}
        {p.counts.images} images, {p.counts.serverGroups} server groups and {p.counts.instances} instances. Importing it
        replaces the whole cloud.
      </p>
      <DataTable caption={<>Changes by kind</>} columns={["Kind", "Added", "Changed", "Removed", "Unchanged"]}>
        {p.changes.map((c) => (
          <tr key={c.kind}>
            <th scope="row">{c.kind}</th>
            <td>{c.added}</td>
            <td>{c.changed}</td>
            <td>{c.removed}</td>
            <td>{c.unchanged}</td>
          </tr>
        ))}
      </DataTable>
      <details>
        <summary>Which records</summary>
        {p.changes.map((c) => (
          <div key={c.kind}>
            <Names label={`${c.kind} added`} names={c.addedNames} count={c.added} />
            <Names label={`${c.kind} changed`} names={c.changedNames} count={c.changed} />
            <Names label={`${c.kind} removed`} names={c.removedNames} count={c.removed} />
          </div>
        ))}
      </details>
      {p.profile ? (
        <p>
          nova.conf becomes the scheduler profile <strong>{p.profile.name}</strong> (
          {p.profile.exists ? (p.profile.changed ? "changed" : "unchanged") : "new"}) and the active one
          {release ? (
            <>
              , answering as Nova <strong>{release}</strong> (chosen on import)
            </>
          ) : null}
          .
        </p>
      ) : null}
      {p.neutral.length ? (
        <div>
          <h3>Neutral values (not in the bundle)</h3>
          <ul className="small">
            {p.neutral.map((n) => (
              <li key={n}>{n}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {p.novaConf?.report.length ? <NovaConfReport report={p.novaConf.report} /> : null}
      {p.warnings.length ? (
        <details>
          <summary>Warnings ({p.warnings.length})</summary>
          <ul className="small">
            {p.warnings.slice(0, 200).map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className="actions-row">
        <button type="button" className="btn primary" onClick={onConfirm}>
          Replace the cloud
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
