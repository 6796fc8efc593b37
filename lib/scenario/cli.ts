/**
 * npm run -s scenario -- import FILE [--profile NAME] [--keep-profiles]
 * npm run -s scenario -- export [--request FILE] [--profile NAME] [--out FILE]
 * npm run -s scenario -- validate FILE
 * npm run -s scenario -- import-openstack DIR|FILE.tar.gz [--dry-run]
 * npm run -s scenario -- nova-conf [--profile NAME]
 * npm run -s scenario -- import-nova-conf FILE --profile NAME
 *
 * The database is DATABASE_URL (default data/schedscope.db); it is created
 * and migrated when missing. FILE may be "-" for stdin.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { recordChanges, type Target } from "@/lib/audit/trail";
import { loadEntity } from "@/lib/audit/entities";
import { createPrismaClient } from "@/lib/db/client";
import { migrateDatabaseAt } from "@/lib/db/open";
import { CloudValidationError, DEFAULT_IMPORT_PROFILE, exportCloud, requestFromDb } from "@/lib/cloud/scenario-io";
import { stableStringify } from "./json";
import { parseJsonText, validateCloud } from "./schema";
import { ProfileNotFoundError } from "../cloud/snapshot";
import { formatPreview } from "../openstack/format";
import { applyImport, NOVA_CONF_PROFILE, prepareImport, previewImport, type Stage } from "../openstack/import";
import { exportNovaConf, formatNovaConfReport, importNovaConf } from "../openstack/nova-conf";
import { saveNovaConfProfile } from "../openstack/profile";
import { importWithSnapshot } from "../history/record";
import type { SnapshotRow } from "../history/store";
import { predictionsOf } from "../history/queries";
import { BundleReadError, readBundlePath } from "../openstack/read-bundle";

const USAGE = `usage:
  npm run -s scenario -- import FILE [--profile NAME] [--keep-profiles] [--at TIME]
      Validate FILE (a scenario / cloud JSON document) and REPLACE the whole cloud
      with it (hosts, aggregates, server groups, instances, flavors, images) in one
      transaction. Its "config" becomes the active scheduler profile NAME
      (default "${DEFAULT_IMPORT_PROFILE}"); other profiles and the run history are kept.
      The request's flavor and image are stored as a Flavor and an Image.
      Nothing changes when FILE is invalid.
  npm run -s scenario -- export [--request FILE | --flavor NAME [--image NAME|UUID] [--num N] [--az AZ]
                                 [--project ID] [--server-group NAME|UUID]] [--profile NAME] [--out FILE]
      Print the cloud as a scenario document (sorted keys, deterministic): the
      active (or NAME) profile's config as "config", plus "request" taken from
      FILE (a request object or a whole scenario) or built from a stored flavor/image.
  npm run -s scenario -- validate FILE
      Check FILE only (shape and cross references); no database needed.
  npm run -s scenario -- import-openstack DIR|FILE.tar.gz [--dry-run] [--at TIME]
      Read a bundle written by scripts/collect-openstack.sh, validate everything,
      print what changes (hosts, aggregates, flavors, images, server groups,
      instances added / changed / removed) and REPLACE the cloud with it in one
      transaction; with --dry-run, only print. A bundle's nova.conf becomes the
      active profile "${NOVA_CONF_PROFILE}". Nothing changes when the bundle is invalid.
      Every import is a snapshot of the cloud's history (npm run -s cloud -- history);
      --at TIME (ISO 8601) is when the file was collected: older than the newest
      snapshot, it enters history only and the current cloud stays.
  npm run -s scenario -- nova-conf [--profile NAME] [--out FILE]
      Print the active (or NAME) profile as a nova.conf fragment: Nova's option
      names, only the values that differ from Nova's defaults.
  npm run -s scenario -- import-nova-conf FILE --profile NAME
      Read the scheduler sections of a nova.conf into profile NAME (created or
      replaced, not activated); unknown options are listed.
database: DATABASE_URL (default data/schedscope.db), created and migrated when missing.`;

class UsageError extends Error {}

function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") flags.help = true;
    else if (a === "--keep-profiles") flags["keep-profiles"] = true;
    else if (a === "--dry-run") flags["dry-run"] = true;
    else if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      if (eq > 0) flags[a.slice(2, eq)] = a.slice(eq + 1);
      else {
        const v = argv[i + 1];
        if (v === undefined || v.startsWith("--")) throw new UsageError(`${a} needs a value`);
        flags[a.slice(2)] = v;
        i++;
      }
    } else positional.push(a);
  }
  return { positional, flags };
}

/** Who a write of this CLI is audited as: the operating-system user running it. */
function cliActor() {
  let user = "unknown";
  try {
    user = os.userInfo().username;
  } catch {}
  return { userId: null, name: `(scenario CLI: ${user})`, userName: `(scenario CLI: ${user})`, role: "admin" as const };
}

/** The audit of a whole-cloud import from `source` (its bytes, or a directory's bundle files). */
function importAudit(action: string, source: string, bytes: Buffer | Map<string, Buffer>) {
  const h = createHash("sha256");
  let size = 0;
  if (Buffer.isBuffer(bytes)) {
    h.update(bytes);
    size = bytes.length;
  } else {
    for (const [name, data] of [...bytes].sort(([a], [b]) => a.localeCompare(b))) {
      h.update(`${name}\0`).update(data).update("\0");
      size += data.length;
    }
  }
  const { userId, userName, role } = cliActor();
  return { userId, userName, role, action, source, sha256: h.digest("hex"), bytes: size };
}

function readText(file: string): Buffer {
  try {
    return file === "-" ? fs.readFileSync(0) : fs.readFileSync(file);
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}

function readJson(file: string, bytes: Buffer = readText(file)): unknown {
  const parsed = parseJsonText(bytes.toString("utf8"), file);
  if (!parsed.ok) throw new CloudValidationError([parsed.error]);
  return parsed.value;
}

function flag(flags: Record<string, string | true>, name: string): string | undefined {
  const v = flags[name];
  return typeof v === "string" ? v : undefined;
}

const KNOWN_FLAGS: Record<string, string[]> = {
  import: ["profile", "keep-profiles", "at"],
  export: ["request", "profile", "out", "flavor", "image", "num", "az", "project", "server-group"],
  validate: [],
  "import-openstack": ["dry-run", "at"],
  "nova-conf": ["profile", "out"],
  "import-nova-conf": ["profile"],
};

async function main(argv: string[]): Promise<number> {
  const { positional, flags } = parseArgs(argv);
  const [cmd, ...rest] = positional;
  if (flags.help || !cmd) {
    process.stdout.write(`${USAGE}\n`);
    return cmd || flags.help ? 0 : 2;
  }
  if (!Object.hasOwn(KNOWN_FLAGS, cmd)) throw new UsageError(`unknown command "${cmd}"`);
  for (const f of Object.keys(flags)) {
    if (!KNOWN_FLAGS[cmd].includes(f)) throw new UsageError(`unknown option --${f} for ${cmd}`);
  }

  if (cmd === "validate") {
    if (rest.length !== 1) throw new UsageError("validate needs exactly one FILE");
    const v = validateCloud(readJson(rest[0]), { forImport: true });
    for (const w of v.warnings) process.stderr.write(`warning: ${w}\n`);
    if (!v.ok) throw new CloudValidationError(v.errors);
    const d = v.value;
    process.stdout.write(
      `${rest[0]}: valid (${d.hosts.length} hosts, ${(d.aggregates ?? []).length} aggregates, ${(d.server_groups ?? []).length} server groups${d.request ? ", with a request" : ""})\n`,
    );
    return 0;
  }

  const mig = await migrateDatabaseAt();
  const { url, label: dbFile } = mig;
  if (mig.applied.length) process.stderr.write(`database ${dbFile}: applied ${mig.applied.join(", ")}\n`);
  for (const m of mig.modified) {
    process.stderr.write(
      `warning: migration ${m} changed after it was applied to ${dbFile}; if this fails, delete that file\n`,
    );
  }
  const prisma = createPrismaClient(url);
  try {
    if (cmd === "import-openstack")
      return await importOpenStack(prisma, rest, flags["dry-run"] === true, dbFile, parseAt(flag(flags, "at")));
    if (cmd === "nova-conf") {
      if (rest.length !== 0) throw new UsageError("nova-conf takes no positional arguments");
      const name = flag(flags, "profile");
      const row = name
        ? await prisma.schedulerProfile.findUnique({ where: { name } })
        : await prisma.schedulerProfile.findFirst({ where: { active: true } });
      if (!row) throw new ProfileNotFoundError(name ?? "(active)");
      const text = exportNovaConf(JSON.parse(row.config), row.name);
      const out = flag(flags, "out");
      if (out) fs.writeFileSync(out, text);
      else process.stdout.write(text);
      return 0;
    }
    if (cmd === "import-nova-conf") {
      const name = flag(flags, "profile");
      if (rest.length !== 1 || !name) throw new UsageError("import-nova-conf needs FILE and --profile NAME");
      let text: string;
      try {
        text = fs.readFileSync(rest[0] === "-" ? 0 : rest[0], "utf8");
      } catch (e) {
        throw new UsageError(`cannot read ${rest[0]}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
      }
      const parsed = importNovaConf(text);
      if (parsed.errors.length) throw new CloudValidationError(parsed.errors);
      await prisma.$transaction(async (tx) => {
        // audited like the app's import-nova-conf: the profile before and after
        const target: Target = { kind: "profile", ref: { name } };
        const before = await loadEntity(tx, "profile", target.ref);
        await saveNovaConfProfile(tx, name, parsed);
        const [targets, befores] = before ? [[target], [before]] : [[], []];
        await recordChanges(
          tx,
          cliActor(),
          "profile.import-nova-conf",
          targets,
          befores,
          before ? null : target,
          false,
        );
      });
      const count = (s: string) => parsed.report.filter((r) => r.status === s).length;
      process.stdout.write(
        `profile "${name}" from ${rest[0]}: ${count("kept")} kept, ${count("ignored")} ignored, ${count("unknown")} unknown\n` +
          formatNovaConfReport(parsed.report)
            .map((l) => `  ${l}\n`)
            .join(""),
      );
      return 0;
    }
    if (cmd === "import") {
      if (rest.length !== 1) throw new UsageError("import needs exactly one FILE");
      const bytes = readText(rest[0]);
      const doc = readJson(rest[0], bytes);
      const at = parseAt(flag(flags, "at"));
      const label = rest[0] === "-" ? "(standard input)" : path.basename(rest[0]);
      const s = await importWithSnapshot(
        prisma,
        doc,
        {
          profileName: flag(flags, "profile"),
          keepProfiles: flags["keep-profiles"] === true,
          audit: importAudit("cloud.import", label, bytes),
        },
        { source: "scenario", startedBy: cliActor().name, at, label },
      );
      await printSnapshot(prisma, s);
      for (const w of s.warnings) process.stderr.write(`warning: ${w}\n`);
      process.stdout.write(
        `replaced the cloud in ${dbFile} with ${rest[0]}: ${s.hosts} hosts in ${s.cells} cell(s), ` +
          `${s.aggregates} aggregates, ${s.serverGroups} server groups, ${s.instances} instances, ` +
          `${s.flavors} flavors, ${s.images} images` +
          (s.profile
            ? `; its config is the active scheduler profile "${s.profile}"`
            : "; scheduler profiles unchanged") +
          ` (validated in ${s.validateMs.toFixed(0)} ms, written in ${s.writeMs.toFixed(0)} ms)\n`,
      );
      return 0;
    }
    // export
    if (rest.length !== 0) throw new UsageError("export takes no positional arguments");
    const reqFile = flag(flags, "request");
    const flavor = flag(flags, "flavor");
    if (reqFile !== undefined && flavor !== undefined)
      throw new UsageError("give --request FILE or --flavor NAME, not both");
    for (const f of ["image", "num", "az", "project", "server-group"]) {
      if (flags[f] !== undefined && flavor === undefined) throw new UsageError(`--${f} needs --flavor`);
    }
    let request: unknown = reqFile !== undefined ? readJson(reqFile) : undefined;
    if (flavor !== undefined) {
      const num = flag(flags, "num");
      if (num !== undefined && !/^[1-9]\d*$/.test(num))
        throw new UsageError(`--num must be a whole number >= 1 (got "${num}")`);
      request = await requestFromDb(prisma, {
        flavor,
        image: flag(flags, "image"),
        numInstances: num !== undefined ? Number(num) : undefined,
        availabilityZone: flag(flags, "az"),
        projectId: flag(flags, "project"),
        serverGroup: flag(flags, "server-group"),
      });
    }
    const doc = await exportCloud(prisma, { profileName: flag(flags, "profile"), request });
    const text = stableStringify(doc);
    const out = flag(flags, "out");
    if (out) fs.writeFileSync(out, text);
    else process.stdout.write(text);
    return 0;
  } finally {
    await prisma.$disconnect();
  }
}

/** `--at`: when the document was collected (ISO 8601); refused when it is not a time or in the future. */
function parseAt(v: string | undefined): Date | undefined {
  if (v === undefined) return undefined;
  const t = Date.parse(v);
  if (!/^\d{4}-\d{2}-\d{2}/.test(v) || Number.isNaN(t))
    throw new UsageError(`--at: must be an ISO 8601 time, e.g. 2026-11-20T06:00:00Z (got "${v}")`);
  if (t > Date.now() + 60_000) throw new UsageError(`--at: must not be in the future (got "${v}")`);
  return new Date(t);
}

async function printSnapshot(
  prisma: ReturnType<typeof createPrismaClient>,
  s: { snapshot?: SnapshotRow; historyOnly?: boolean },
) {
  if (!s.snapshot) return;
  const n = s.snapshot;
  process.stderr.write(
    `history: snapshot #${n.id} taken ${n.takenAt.toISOString()} (${n.source}), digest ${n.digest.slice(0, 12)}, ` +
      `added ${n.addedBytes} bytes for a ${n.bytes}-byte cloud` +
      (s.historyOnly ? "; older than the newest snapshot: entered history only, the current cloud is unchanged" : "") +
      "\n",
  );
  // predictions against the snapshot before it, kept for the overview's agreement figure
  const r = await predictionsOf(prisma, n.id);
  if (r?.predictions.length)
    process.stderr.write(
      `history: ${r.agreed} of ${r.compared} new server(s) where Schedscope predicted (npm run -s cloud -- predictions ${n.id})\n`,
    );
}

async function importOpenStack(
  prisma: ReturnType<typeof createPrismaClient>,
  rest: string[],
  dryRun: boolean,
  dbFile: string,
  at?: Date,
): Promise<number> {
  if (rest.length !== 1) throw new UsageError("import-openstack needs exactly one DIR or FILE.tar.gz");
  const t0 = performance.now();
  const progress = (stage: Stage, detail?: string) =>
    process.stderr.write(`[${((performance.now() - t0) / 1000).toFixed(1)} s] ${stage}${detail ? ` ${detail}` : ""}\n`);
  progress("reading", rest[0]);
  const files = await readBundlePath(rest[0]);
  const prepared = prepareImport(files, progress);
  for (const w of prepared.warnings) process.stderr.write(`warning: ${w}\n`);
  const preview = await previewImport(prisma, prepared, progress);
  process.stdout.write(formatPreview(preview));
  if (dryRun) {
    process.stdout.write("dry run: nothing was changed\n");
    return 0;
  }
  const source = path.basename(path.resolve(rest[0]));
  const archive = fs.statSync(rest[0]).isFile() ? fs.readFileSync(rest[0]) : files;
  const s = await applyImport(
    prisma,
    prepared,
    {
      audit: importAudit("cloud.import-openstack", source, archive),
      snapshot: { source: "bundle", startedBy: cliActor().name, at, label: source },
    },
    progress,
  );
  await printSnapshot(prisma, s);
  process.stdout.write(
    `replaced the cloud in ${dbFile} with ${rest[0]}: ${s.hosts} hosts, ${s.aggregates} aggregates, ` +
      `${s.serverGroups} server groups, ${s.instances} instances, ${s.flavors} flavors, ${s.images} images` +
      (s.profile ? `; nova.conf is the active scheduler profile "${s.profile}"` : "; scheduler profiles unchanged") +
      ` (${((performance.now() - t0) / 1000).toFixed(1)} s)\n`,
  );
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
    }
    if (err instanceof BundleReadError) {
      for (const e of err.errors) process.stderr.write(`error: ${e}\n`);
      process.stderr.write("nothing was changed\n");
      process.exit(1);
    }
    if (err instanceof CloudValidationError) {
      for (const w of err.warnings) process.stderr.write(`warning: ${w}\n`);
      for (const e of err.errors) process.stderr.write(`error: ${e}\n`);
      process.stderr.write("nothing was changed\n");
      process.exit(1);
    }
    if (err instanceof ProfileNotFoundError) {
      process.stderr.write(`error: ${err.message}\n`);
      process.exit(1);
    }
    process.stderr.write(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  },
);
