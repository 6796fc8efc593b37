/**
 * The history's subcommands of `npm run -s cloud -- ...`, JSON lines out
 * (one object per line, for cron and scripts):
 *
 *   history [--limit N] [--max-snapshots N] [--max-age-days N|none]
 *   diff A B                 (snapshot ids, or "latest" / "previous")
 *   predictions [SNAPSHOT]   (default: the newest)
 *
 * Each handler takes the database and its arguments, writes lines through
 * `out`, and answers an exit code; a usage error throws CliUsageError.
 */
import type { PrismaClient } from "@/lib/db/client";
import { diffLines } from "./diff";
import { diffOf, predictionsOf } from "./queries";
import {
  checkRetention,
  listSnapshots,
  previousSnapshot,
  readRetention,
  type RetentionPolicy,
  saveRetention,
  type SnapshotRow,
} from "./store";

export class CliUsageError extends Error {}

export type Out = (line: Record<string, unknown>) => void;

export const HISTORY_USAGE = `  history [--limit N] [--max-snapshots N] [--max-age-days N|none]
      One line per snapshot, newest first: id, taken_at, source, started_by, label,
      profile, counts, digest, bytes (a full copy), added_bytes (what it cost);
      then the retention rule. --max-snapshots / --max-age-days change the rule
      and apply it at once.
  diff A B
      What changed from snapshot A to B (ids, "latest", "previous"): one line per
      host added/removed/disabled/enabled/changed, aggregate host and metadata
      change, flavor, image, server group, instance created/deleted/moved, and
      usage per AZ; then a summary line.
  predictions [SNAPSHOT]
      For every server new in SNAPSHOT (default: the newest), where Schedscope
      would have put it on the snapshot before, beside the host Nova chose; then
      a summary line with the agreement.`;

function options(args: string[], known: string[]): { positional: string[]; flags: Map<string, string> } {
  const positional: string[] = [];
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (!a.startsWith("--")) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = eq > 0 ? a.slice(2, eq) : a.slice(2);
    if (!known.includes(name)) throw new CliUsageError(`unknown option --${name}`);
    const v = eq > 0 ? a.slice(eq + 1) : args[++i];
    if (v === undefined) throw new CliUsageError(`--${name} needs a value`);
    flags.set(name, v);
  }
  return { positional, flags };
}

function wholeNumber(name: string, v: string): number {
  if (!/^\d+$/.test(v)) throw new CliUsageError(`${name}: must be a whole number (got "${v}")`);
  return Number(v);
}

export function snapshotLine(s: SnapshotRow): Record<string, unknown> {
  return {
    id: s.id,
    taken_at: s.takenAt.toISOString(),
    recorded_at: s.recordedAt.toISOString(),
    source: s.source,
    started_by: s.startedBy,
    label: s.label,
    profile: s.profileName,
    counts: s.counts,
    usage: s.usage,
    digest: s.digest,
    bytes: s.bytes,
    added_bytes: s.addedBytes,
  };
}

export async function history(db: PrismaClient, args: string[], out: Out): Promise<number> {
  const { positional, flags } = options(args, ["limit", "max-snapshots", "max-age-days"]);
  if (positional.length) throw new CliUsageError(`history takes no argument (got "${positional[0]}")`);
  const change: Partial<RetentionPolicy> = {};
  if (flags.has("max-snapshots")) change.maxSnapshots = wholeNumber("--max-snapshots", flags.get("max-snapshots")!);
  if (flags.has("max-age-days")) {
    const v = flags.get("max-age-days")!;
    change.maxAgeDays = v === "none" ? null : wholeNumber("--max-age-days", v);
  }
  let dropped = 0;
  if (Object.keys(change).length) {
    const errors = checkRetention(change);
    if (errors.length) throw new CliUsageError(errors.join("; "));
    dropped = (await saveRetention(db, change)).dropped;
  }
  const limit = flags.has("limit") ? wholeNumber("--limit", flags.get("limit")!) : undefined;
  for (const s of await listSnapshots(db, { limit })) out(snapshotLine(s));
  out({ retention: await readRetention(db), ...(Object.keys(change).length ? { dropped } : {}) });
  return 0;
}

/** "latest", "previous" or an id (#12 / 12) -> the snapshot's id. */
async function resolveId(db: PrismaClient, v: string): Promise<number> {
  if (v === "latest" || v === "previous") {
    const [newest] = await listSnapshots(db, { limit: 1 });
    if (!newest) throw new CliUsageError("the history is empty (import or sync a cloud first)");
    if (v === "latest") return newest.id;
    const prev = await previousSnapshot(db, newest.id);
    if (!prev) throw new CliUsageError("the history has one snapshot only: there is no previous one");
    return prev.id;
  }
  const m = /^#?(\d+)$/.exec(v);
  if (!m) throw new CliUsageError(`snapshot: must be an id, "latest" or "previous" (got "${v}")`);
  return Number(m[1]);
}

export async function diff(db: PrismaClient, args: string[], out: Out): Promise<number> {
  const { positional } = options(args, []);
  if (positional.length !== 2) throw new CliUsageError("diff needs two snapshots: diff A B");
  const a = await resolveId(db, positional[0]);
  const b = await resolveId(db, positional[1]);
  const d = await diffOf(db, a, b);
  for (const line of diffLines(d)) out(line);
  out({ section: "summary", from: a, to: b, counts: d.counts });
  return 0;
}

export async function predictions(db: PrismaClient, args: string[], out: Out): Promise<number> {
  const { positional } = options(args, []);
  if (positional.length > 1) throw new CliUsageError("predictions takes at most one snapshot");
  const id = await resolveId(db, positional[0] ?? "latest");
  const r = await predictionsOf(db, id);
  if (!r) {
    out({ snapshot: id, previous: null, compared: 0, note: "the oldest snapshot: nothing before it to predict on" });
    return 0;
  }
  for (const p of r.predictions) out({ snapshot: r.snapshot, ...p });
  out({
    snapshot: r.snapshot,
    previous: r.previous,
    profile: r.profile,
    agreed: r.agreed,
    compared: r.compared,
    agreement: r.compared ? r.agreed / r.compared : null,
    notes: r.notes,
  });
  return 0;
}

export const HISTORY_COMMANDS = { history, diff, predictions } as const;
