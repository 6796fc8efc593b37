/**
 * docs/performance.md keeps one dated section per `npm run bench`: its
 * tables and goal lines with the machine's load at the start and the end,
 * so the next drop shows in a diff. bench/index.ts tees its output and
 * hands it here at the end.
 */
import { appendFileSync, readFileSync } from "node:fs";

export interface RunRecord {
  started: Date;
  loadStart: number;
  loadEnd: number;
  /** e.g. "2 CPUs, AMD EPYC", "node v20.20.2", the commit. */
  machine: string;
  /** Everything the run printed. */
  output: string;
}

/** The lines of a run worth keeping: its markdown tables, its goal lines, the capacity fill's per-boot figures. */
export function keptLines(output: string): string[] {
  const kept: string[] = [];
  let inTable = false;
  for (const raw of output.split("\n")) {
    const line = raw.trimEnd();
    const tableLine = line.startsWith("|");
    if (tableLine) {
      // a blank line before each table, so markdown renders it
      if (!inTable && kept.length) kept.push("");
      kept.push(line);
    } else if (/goal[^:]*: (met|NOT met)|ms CPU per boot/.test(line)) {
      if (inTable) kept.push("");
      kept.push(line.startsWith("-") || line.startsWith(" ") ? line : `- ${line.trim()}`);
    }
    inTable = tableLine;
  }
  return kept;
}

/** The dated section for one run. */
export function runSection(r: RunRecord): string {
  const when = r.started.toISOString().slice(0, 16).replace("T", " ");
  return [
    `### ${when} UTC: npm run bench, load average ${r.loadStart.toFixed(1)} at the start, ${r.loadEnd.toFixed(1)} at the end`,
    "",
    r.machine,
    "",
    ...keptLines(r.output),
    "",
  ].join("\n");
}

export const RUNS_HEADING = "## Every run of npm run bench";

/** Appends a run's section under the runs heading (added once, at the end of the file). */
export function appendRun(file: string, section: string): void {
  const text = readFileSync(file, "utf8");
  const head = text.includes(RUNS_HEADING)
    ? ""
    : `\n${RUNS_HEADING}\n\nbench/index.ts appends one section per run (\`--no-record\` leaves this file alone).\n`;
  appendFileSync(file, `${head}\n${section}`);
}
