/**
 * npm run bench's log row: a synthetic nova-scheduler log of ~1 GB (BENCH_LOG_MB,
 * default 1024) made of the real cloud's own lines (lib/nova-logs/fixtures/
 * real-cloud/nova-scheduler.log: boots, a multi-instance request, a Placement
 * NoValidHost, a filter NoValidHost), each copy under a new request id and a
 * later time, in a temporary directory; then parsed into scheduling calls by
 * a child process (so its peak RSS is the parser's alone).
 * Prints MB/s (goal >= 50) and peak RSS (goal < 300 MB).
 */
import { execFileSync } from "node:child_process";
import { createWriteStream, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { bundled } from "./bundle";

const ROOT = path.resolve(__dirname, "..");
const REQ = /(req-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-)[0-9a-f]{12}/g;
const FIXTURE = path.join(ROOT, "lib/nova-logs/fixtures/real-cloud/nova-scheduler.log");

async function generate(file: string, bytes: number): Promise<void> {
  const lines = readFileSync(FIXTURE, "utf8").split("\n").filter(Boolean);
  const out = createWriteStream(file);
  let written = 0;
  let k = 0;
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  while (written < bytes) {
    const hex = k.toString(16).padStart(12, "0");
    const stamp = new Date(t0 + k * 1000).toISOString().replace("T", " ").slice(0, 19);
    // A new request id per copy (its last 12 hex digits), so each copy is calls of its own.
    const chunk = `${lines.map((l) => stamp + l.slice(19).replace(REQ, `$1${hex}`)).join("\n")}\n`;
    written += Buffer.byteLength(chunk);
    k++;
    if (!out.write(chunk)) await new Promise<void>((r) => out.once("drain", r));
  }
  await new Promise<void>((r) => out.end(r));
}

/** The row: generate, parse in a child process, print the figures. */
export async function benchLogs(): Promise<void> {
  const mb = Number(process.env.BENCH_LOG_MB ?? 1024);
  const dir = mkdtempSync(path.join(os.tmpdir(), "schedscope-logs-"));
  const file = path.join(dir, "nova-scheduler.log");
  try {
    await generate(file, mb * 1048576);
    const out = execFileSync(process.execPath, [bundled("bench/logs-parse.ts"), file], {
      cwd: ROOT,
      encoding: "utf8",
    });
    const r = JSON.parse(out.trim().split("\n").pop()!);
    const rate = r.mb / r.seconds;
    const goal = (ok: boolean) => (ok ? "met" : "NOT met");
    console.log(
      `\nNova logs: ${r.mb.toFixed(0)} MB synthetic nova-scheduler log (real-cloud line shapes), ${r.lines.toLocaleString("en")} lines, ` +
        `${r.calls.toLocaleString("en")} scheduling calls, ${r.unparsed} unparsed: ${r.seconds.toFixed(1)} s, ` +
        `${rate.toFixed(0)} MB/s (goal >= 50: ${goal(rate >= 50)}; ${(r.mb / r.cpuSeconds).toFixed(0)} MB per CPU second, ` +
        `which is what the machine's load does not change), peak RSS ${r.peakRssMb.toFixed(0)} MB (goal < 300: ${goal(r.peakRssMb < 300)}); ` +
        `load average ${os.loadavg()[0].toFixed(1)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run alone: npx tsx bench/logs.ts (BENCH_LOG_MB=100 for a quick check).
if (/logs\.ts$/.test(process.argv[1] ?? "")) {
  benchLogs().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
