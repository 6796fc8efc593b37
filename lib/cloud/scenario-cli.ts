/**
 * npm run -s scenario -- import FILE [--profile NAME] [--keep-profiles]
 * npm run -s scenario -- export [--request FILE] [--profile NAME] [--out FILE]
 * npm run -s scenario -- validate FILE
 *
 * The database is DATABASE_URL (default data/schedscope.db); it is created
 * and migrated when missing. FILE may be "-" for stdin.
 */
import fs from "node:fs";
import { createPrismaClient } from "@/lib/db-client";
import { databaseFilePath, resolveDatabaseUrl } from "@/lib/db-url";
import { migrateDatabase } from "@/lib/db-migrate";
import { CloudValidationError, DEFAULT_IMPORT_PROFILE, exportCloud, importCloud, requestFromDb } from "./import-export";
import { stableStringify } from "./json";
import { parseJsonText, validateCloud } from "./schemas";
import { ProfileNotFoundError } from "./snapshot";

const USAGE = `usage:
  npm run -s scenario -- import FILE [--profile NAME] [--keep-profiles]
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
database: DATABASE_URL (default data/schedscope.db), created and migrated when missing.`;

class UsageError extends Error {}

function parseArgs(argv: string[]) {
  const positional: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--help" || a === "-h") flags.help = true;
    else if (a === "--keep-profiles") flags["keep-profiles"] = true;
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

function readJson(file: string): unknown {
  let text: string;
  try {
    text = file === "-" ? fs.readFileSync(0, "utf8") : fs.readFileSync(file, "utf8");
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const parsed = parseJsonText(text, file);
  if (!parsed.ok) throw new CloudValidationError([parsed.error]);
  return parsed.value;
}

function flag(flags: Record<string, string | true>, name: string): string | undefined {
  const v = flags[name];
  return typeof v === "string" ? v : undefined;
}

const KNOWN_FLAGS: Record<string, string[]> = {
  import: ["profile", "keep-profiles"],
  export: ["request", "profile", "out", "flavor", "image", "num", "az", "project", "server-group"],
  validate: [],
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

  const url = resolveDatabaseUrl();
  const dbFile = databaseFilePath(url);
  const mig = migrateDatabase(url);
  if (mig.applied.length) process.stderr.write(`database ${dbFile}: applied ${mig.applied.join(", ")}\n`);
  for (const m of mig.modified) {
    process.stderr.write(
      `warning: migration ${m} changed after it was applied to ${dbFile}; if this fails, delete that file\n`,
    );
  }
  const prisma = createPrismaClient(url);
  try {
    if (cmd === "import") {
      if (rest.length !== 1) throw new UsageError("import needs exactly one FILE");
      const doc = readJson(rest[0]);
      const s = await importCloud(prisma, doc, {
        profileName: flag(flags, "profile"),
        keepProfiles: flags["keep-profiles"] === true,
      });
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    if (err instanceof UsageError) {
      process.stderr.write(`error: ${err.message}\n\n${USAGE}\n`);
      process.exit(2);
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
