/**
 * POST /api/explain: Nova's logs uploaded (several files, plain or gzip) as
 * multipart form data, field `logs`. Refusals come before any work, in the
 * one error shape naming the field: not a form, nothing chosen, too large,
 * too many files, an unknown profile or release. Then the answer streams as
 * JSON lines: {"type":"progress","read","total"} while the logs are read,
 * then {"type":"result",...}; a failure after that is {"type":"error"}.
 * Nothing is written. A log is text: it is matched, never run or rendered.
 */
import { apiError } from "@/lib/core/errors";
import { isNovaRelease } from "../scheduler/releases";
import type { Scenario, ScenarioConfig, ScenarioFlavor } from "../scheduler/scenario";
import { type CloudAsOf, currentCloudAsOf, explainCall } from "./explain";
import { byStart } from "./order";
import { type PeriodOutcome, replayPeriod } from "./period";
import { type LogInput, readLogs } from "./read";
import { requestFor } from "./request";
import type { ReadStats, SchedulingCall } from "./types";
import { type CallView, callView } from "./view";

/** What one upload may carry, all files together (the CLI reads any size). */
export const MAX_UPLOAD_BYTES = 200 * 1024 * 1024; // the proxy passes request bodies up to this (next.config.js)
export const MAX_FILES = 20;
/** Calls kept for explaining, the newest (a log grows at its end); the older ones are counted. */
export const MAX_CALLS = 5000;
/** Calls explained in the answer, the newest (the page lists these). */
export const MAX_SHOWN = 1000;

export interface CloudForExplain {
  scenario: Omit<Scenario, "request">;
  flavors: ScenarioFlavor[];
  label: string;
}

export class ExplainInputError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

export interface ExplainDeps {
  /** The cloud to replay on, with `profile`'s configuration (the active one when absent). Throws ExplainInputError. */
  loadCloud: (profile?: string) => Promise<CloudForExplain>;
  /** The cloud of each call's moment (the snapshot in force then); without it the current cloud stands for every moment. */
  cloudAsOf?: (calls: SchedulingCall[], current: CloudForExplain) => Promise<CloudAsOf>;
}

export interface ExplainResult {
  type: "result";
  stats: ReadStats;
  /** Calls found in all (the list may show fewer). */
  total: number;
  calls: CallView[];
  agreeing: number;
  period: (PeriodOutcome & { profile: string; release: string | null }) | null;
}

const refuse = (status: number, field: string, message: string) => apiError(status, message, { [field]: [message] });

export async function explainUpload(req: Request, deps: ExplainDeps): Promise<Response> {
  const type = req.headers.get("content-type") ?? "";
  if (!type.startsWith("multipart/form-data"))
    return refuse(415, "logs", "logs: send the log files as multipart/form-data (field logs)");
  const declared = Number(req.headers.get("content-length") ?? "NaN");
  if (Number.isFinite(declared) && declared > MAX_UPLOAD_BYTES)
    return refuse(
      413,
      "logs",
      `logs: ${(declared / 1048576).toFixed(0)} MB sent; an upload may be at most ${MAX_UPLOAD_BYTES / 1048576} MB (read larger logs with npm run -s explain)`,
    );
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    return refuse(400, "logs", "logs: the upload could not be read as a form");
  }
  const files = form.getAll("logs").filter((f): f is File => typeof f === "object" && f !== null && "stream" in f);
  if (!files.length) return refuse(400, "logs", "logs: choose at least one log file");
  if (files.length > MAX_FILES) return refuse(400, "logs", `logs: at most ${MAX_FILES} files at once`);
  const size = files.reduce((s, f) => s + f.size, 0);
  if (size > MAX_UPLOAD_BYTES)
    return refuse(
      413,
      "logs",
      `logs: at most ${MAX_UPLOAD_BYTES / 1048576} MB in all (read larger logs with npm run -s explain)`,
    );
  const mode = form.get("mode") ?? "explain";
  if (mode !== "explain" && mode !== "period") return refuse(400, "mode", "mode: must be explain or period");
  const profileField = form.get("profile");
  const profile = typeof profileField === "string" && profileField ? profileField : undefined;
  const releaseField = form.get("nova_release");
  const release = typeof releaseField === "string" && releaseField ? releaseField : null;
  if (release !== null && !isNovaRelease(release))
    return refuse(400, "nova_release", "nova_release: not a Nova release Schedscope knows");

  let cloud: CloudForExplain;
  let other: CloudForExplain | null = null;
  try {
    cloud = await deps.loadCloud();
    if (mode === "period") other = await deps.loadCloud(profile);
  } catch (e) {
    if (e instanceof ExplainInputError) return refuse(400, e.field, e.message);
    throw e;
  }

  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (v: unknown) => controller.enqueue(encoder.encode(`${JSON.stringify(v)}\n`));
      try {
        const calls: SchedulingCall[] = [];
        let queries = new Map<string, string>();
        const inputs: LogInput[] = files.map((f) => ({
          name: f.name || "log",
          size: f.size,
          chunks: f.stream() as unknown as AsyncIterable<Uint8Array>,
        }));
        const stats = await readLogs(inputs, {
          onCall: (c) => {
            calls.push(c);
            // keep the newest: the call asked about is most often the latest
            if (calls.length >= 2 * MAX_CALLS) calls.sort(byStart).splice(0, calls.length - MAX_CALLS);
          },
          onProgress: (read, total) => send({ type: "progress", read, total }),
          onQueries: (q) => {
            queries = q;
          },
        });
        for (const c of calls) c.placementQuery ??= queries.get(c.requestId) ?? null;
        calls.sort(byStart);
        if (calls.length > MAX_CALLS) calls.splice(0, calls.length - MAX_CALLS);
        const asOf = deps.cloudAsOf
          ? await deps.cloudAsOf(calls, cloud)
          : currentCloudAsOf(cloud.scenario, cloud.label);
        const forRequest = requestFor(cloud.flavors);
        const views: CallView[] = [];
        let agreeing = 0;
        for (const [i, call] of calls.entries()) {
          const e = explainCall(call, { cloudAsOf: asOf, requestFor: forRequest });
          if (e.agree) agreeing++;
          if (i >= calls.length - MAX_SHOWN) views.push(callView(e));
          // let other requests in between long runs of replays
          if (i % 100 === 99) await new Promise((r) => setImmediate(r));
        }
        let period: ExplainResult["period"] = null;
        if (other) {
          const config = {
            ...(other.scenario.config ?? {}),
            ...(release ? { nova_release: release } : {}),
          } as ScenarioConfig;
          period = {
            ...replayPeriod(calls, { cloud: cloud.scenario, config, requestFor: forRequest, flavors: cloud.flavors }),
            profile: other.label,
            release,
          };
          period.steps = period.steps.slice(-MAX_SHOWN);
        }
        const result: ExplainResult = { type: "result", stats, total: stats.calls, calls: views, agreeing, period };
        send(result);
      } catch (e) {
        send({ type: "error", error: `the logs could not be explained: ${(e as Error).message}` });
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { "Content-Type": "application/x-ndjson", "Cache-Control": "no-store" } });
}
