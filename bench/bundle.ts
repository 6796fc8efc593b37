/**
 * The engine as the server runs it, for the timed child processes of npm
 * run bench. A production server runs every request on the engine its
 * instrumentation.ts warmed (lib/core/process-engine.ts), and `next build` puts that
 * engine in one module: one scope, where a call from one file's function to
 * another's is a plain call. Run from source through tsx, each file is a
 * module of its own and such a call goes through the getter esbuild writes
 * for each CommonJS export, which V8 does not always inline: the NUMA/PCI
 * request measured about 15% slower that way, the plain one the same. So the
 * children run from an esbuild bundle of their entry, built here.
 */
import path from "node:path";
import { buildSync } from "esbuild";

const ROOT = path.resolve(__dirname, "..");
const OUT = path.join(ROOT, "node_modules", ".cache", "schedscope-bench");
const built = new Map<string, string>();

/** The bundle of `entry` (relative to the project), built once per bench process. */
export function bundled(entry: string): string {
  let file = built.get(entry);
  if (!file) {
    file = path.join(OUT, `${path.basename(entry, ".ts")}.cjs`);
    buildSync({
      entryPoints: [path.join(ROOT, entry)],
      outfile: file,
      bundle: true,
      platform: "node",
      format: "cjs",
      target: "node20",
      logLevel: "warning",
    });
    built.set(entry, file);
  }
  return file;
}
