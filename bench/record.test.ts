import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { appendRun, keptLines, RUNS_HEADING, runSection } from "./record";

const OUTPUT = `Schedscope engine vs the Nova reference, ms (2 CPUs, AMD EPYC; load average 0.8 at start)
100\t1\t52\t0.176
| hosts | engine warm |
|------:|------------:|
|   100 |       0.176 |

- 10000 hosts × 50: Nova reference skipped: would take minutes

Goals
- 10,000 hosts, warm: 489× the Nova reference's speed (goal ≥ 300×: met)
  NUMA/PCI (bigNumaCloud): 55.8 ms, 5.7× its warm median (9.88 ms)
- 50,000 hosts × 50 instances: 590 ms warm (goal < 500 ms: NOT met)
NUMA/PCI at 10,000 hosts: 1.79× (goal ≤ 3×: met)
capacity fill, 10000 hosts, m1.large:
  default profile: 5000 boots on 718 hosts in 1.08 s wall, 1.27 s CPU (0.253 ms CPU per boot), stopped by the limit
| hosts | matched |
|------:|--------:|
| 1,000 |     968 |
`;

describe("keptLines", () => {
  it.each([
    { what: "the tables, each after a blank line", line: "|   100 |       0.176 |", kept: true },
    {
      what: "a goal met",
      line: "- 10,000 hosts, warm: 489× the Nova reference's speed (goal ≥ 300×: met)",
      kept: true,
    },
    { what: "a goal not met", line: "- 50,000 hosts × 50 instances: 590 ms warm (goal < 500 ms: NOT met)", kept: true },
    {
      what: "a goal line without its dash, given one",
      line: "- NUMA/PCI at 10,000 hosts: 1.79× (goal ≤ 3×: met)",
      kept: true,
    },
    {
      what: "the fill's per-boot figure",
      line: "  default profile: 5000 boots on 718 hosts in 1.08 s wall, 1.27 s CPU (0.253 ms CPU per boot), stopped by the limit",
      kept: true,
    },
    { what: "progress rows", line: "100\t1\t52\t0.176", kept: false },
    {
      what: "notes without a goal",
      line: "  NUMA/PCI (bigNumaCloud): 55.8 ms, 5.7× its warm median (9.88 ms)",
      kept: false,
    },
  ])("$what: kept $kept", ({ line, kept }) => {
    expect(keptLines(OUTPUT).includes(line)).toBe(kept);
  });
  it("keeps a table's lines together and in order", () => {
    const lines = keptLines(OUTPUT);
    const at = lines.indexOf("| hosts | matched |");
    expect(lines.slice(at - 1, at + 3)).toEqual([
      "",
      "| hosts | matched |",
      "|------:|--------:|",
      "| 1,000 |     968 |",
    ]);
  });
});

describe("a run's section in docs/performance.md", () => {
  const record = {
    started: new Date("2026-11-28T17:30:00Z"),
    loadStart: 0.84,
    loadEnd: 1.26,
    machine: "2 CPUs, AMD EPYC; node v20.20.2; commit abc1234",
    output: OUTPUT,
  };
  it("is dated and names the load at both ends", () => {
    expect(runSection(record).split("\n")[0]).toBe(
      "### 2026-11-28 17:30 UTC: npm run bench, load average 0.8 at the start, 1.3 at the end",
    );
  });
  it("adds the runs heading once, then one section per run", () => {
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), "record-")), "performance.md");
    writeFileSync(file, "# Performance\n");
    appendRun(file, runSection(record));
    appendRun(file, runSection({ ...record, started: new Date("2026-11-28T18:00:00Z") }));
    const text = readFileSync(file, "utf8");
    expect(text.split(RUNS_HEADING).length - 1).toBe(1);
    expect(text.match(/^### 2026-11-28 \d\d:\d\d UTC/gm)).toEqual([
      "### 2026-11-28 17:30 UTC",
      "### 2026-11-28 18:00 UTC",
    ]);
  });
});
