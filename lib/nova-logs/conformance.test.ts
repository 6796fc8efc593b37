/**
 * Every shared example that comes with Nova's own log lines
 * (../shared/nova-reference/examples/*.nova.log, written by the reference's
 * --nova-log): each scheduling call is found, what it logged is read exactly
 * as the example's expected.json says Nova decided (the filters' counts per
 * instance, the selected hosts, the error), and Schedscope's replay on the
 * example's cloud agrees. The same lines wrapped by journald, gzipped, split
 * over two files or interleaved with another worker's read the same.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { loadScenarioFile } from "../scenario/file";
import { currentCloudAsOf, explainCall } from "./explain";
import { type LogInput, readAllCalls } from "./read";
import { infoOnly } from "./info-only";
import { requestFor } from "./request";

function referenceDir(): string {
  const tried = [
    process.env.NOVA_REFERENCE_DIR,
    path.resolve("..", "shared", "nova-reference"),
    path.resolve("..", "..", "shared", "nova-reference"),
  ];
  const found = tried.find((d) => d && existsSync(d));
  if (!found) throw new Error(`no nova-reference beside the repository (tried ${tried.filter(Boolean).join(", ")})`);
  return found;
}

const EXAMPLES = path.join(referenceDir(), "examples");
const names = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith(".nova.log"))
  .map((f) => f.replace(/\.nova\.log$/, ""))
  .sort();

interface Expected {
  error: string | null;
  selections: Array<{ host: string }>;
  requests: Array<{ funnel: Array<{ filter: string; stage?: string; out: number }>; chosen?: string }>;
}

const input = (name: string, text: string | Buffer): LogInput => ({
  name,
  chunks: (async function* () {
    const b = Buffer.from(text);
    // Small chunks so lines straddle chunk boundaries.
    for (let i = 0; i < b.length; i += 4096) yield b.subarray(i, i + 4096);
  })(),
});

/** The same lines as journald prints them (-o short-iso), the oslo line as the message. */
function shortIso(text: string): string {
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) => `${l.slice(0, 10)}T${l.slice(11, 19)}+0000 ctl1 nova-scheduler[${l.split(" ")[2]}]: ${l}`)
    .join("\n");
}

/** The same lines as `journalctl -o json` records. */
function journalJson(text: string): string {
  return text
    .split("\n")
    .filter(Boolean)
    .map((l) =>
      JSON.stringify({
        __REALTIME_TIMESTAMP: String(Date.parse(`${l.slice(0, 10)}T${l.slice(11, 23)}Z`) * 1000),
        _PID: l.split(" ")[2],
        SYSLOG_IDENTIFIER: "nova-scheduler",
        MESSAGE: l,
      }),
    )
    .join("\n");
}

describe.each(names)("%s.nova.log", (name) => {
  const log = readFileSync(path.join(EXAMPLES, `${name}.nova.log`), "utf8");
  const expected = JSON.parse(readFileSync(path.join(EXAMPLES, `${name}.expected.json`), "utf8")) as Expected;
  const cloud = loadScenarioFile(path.join(EXAMPLES, `${name}.scenario.json`));

  it("each scheduling call is found and its counts, selection and error read exactly", async () => {
    const { calls, stats } = await readAllCalls([input(`${name}.nova.log`, log)]);
    expect(stats.unparsed).toBe(0);
    expect(calls).toHaveLength(log.split("Starting to schedule for instances").length - 1);
    const call = calls[0];
    const passes = call.passes.filter((p) => !p.alternates);
    const filterSteps = expected.requests.map((r) =>
      r.funnel
        .filter((f) => (f.stage ?? "filter") === "filter" && f.filter !== "Placement")
        .map((f) => [f.filter, f.out]),
    );
    expect(passes.map((p) => p.filters.map((f) => [f.name, f.hostsLeft]))).toEqual(
      filterSteps.filter((s, i) => s.length || passes[i]),
    );
    expect(call.selected.map((s) => s.host)).toEqual(expected.selections.map((s) => s.host));
    expect(call.error).toBe(expected.error);
    expect(call.instanceUuids.length).toBe(cloud.request.num_instances ?? 1);
  });

  it("the replay on the example's cloud agrees", async () => {
    const { calls } = await readAllCalls([input(name, log)]);
    for (const call of calls) {
      const e = explainCall(call, { cloudAsOf: currentCloudAsOf(cloud, name) });
      expect(e.differences).toEqual([]);
      expect(e.agree).toBe(true);
    }
  });

  it.each<[string, (t: string) => LogInput[]]>([
    ["journalctl -o short-iso", (t) => [input("journal.txt", shortIso(t))]],
    ["journalctl -o json", (t) => [input("journal.json", journalJson(t))]],
    ["gzip", (t) => [input("nova-scheduler.log.gz", gzipSync(t))]],
    [
      "split over two files (a rotated log)",
      (t) => {
        const lines = t.split("\n");
        const half = Math.floor(lines.length / 2);
        return [
          input("nova-scheduler.log.1", `${lines.slice(0, half).join("\n")}\n`),
          input("nova-scheduler.log", lines.slice(half).join("\n")),
        ];
      },
    ],
  ])("reads the same from %s", async (_how, wrap) => {
    const plain = await readAllCalls([input(name, log)]);
    const wrapped = await readAllCalls(wrap(log));
    expect(wrapped.stats.unparsed).toBe(0);
    const strip = (c: (typeof plain.calls)[number]) => ({ ...c, source: null, pid: null, started: 0, ended: 0 });
    expect(wrapped.calls.map(strip)).toEqual(plain.calls.map(strip));
  });
});

describe("several workers' lines interleaved", () => {
  it("each request's call is whole", async () => {
    const logs = names.map((n) =>
      readFileSync(path.join(EXAMPLES, `${n}.nova.log`), "utf8")
        .split("\n")
        .filter(Boolean),
    );
    const mixed: string[] = [];
    for (let i = 0; logs.some((l) => i < l.length); i++) for (const l of logs) if (i < l.length) mixed.push(l[i]);
    const alone = await Promise.all(names.map((n, k) => readAllCalls([input(n, logs[k].join("\n"))])));
    const together = await readAllCalls([input("mixed", mixed.join("\n"))]);
    const key = (c: { requestId: string; selected: unknown; passes: unknown; error: unknown }) =>
      JSON.stringify([c.requestId, c.selected, c.passes, c.error]);
    expect(together.calls.map(key).sort()).toEqual(alone.flatMap((a) => a.calls.map(key)).sort());
  });
});

/**
 * Boots on the real cloud (../shared/real-cloud, Nova Zed): its scheduler's
 * DEBUG log, placement-api's request log and the cloud collected before the
 * boots (fixtures/real-cloud/). servers.json is what the compute API said
 * after: where each server went, or ERROR.
 */
describe("the real cloud's boots", () => {
  const dir = path.join(__dirname, "fixtures", "real-cloud");
  const file = (f: string) => readFileSync(path.join(dir, f), "utf8");
  const servers = JSON.parse(file("servers.json")) as Array<{ ID: string; Status: string; Host: string | null }>;
  const cloud = JSON.parse(file("cloud.json"));
  const read = () =>
    readAllCalls([
      input("nova-scheduler.log", file("nova-scheduler.log")),
      input("placement.log", file("placement.log")),
    ]);

  it("each boot is a call whose selection and error are what the compute API says", async () => {
    const { calls, stats } = await read();
    expect(stats.unparsed).toBe(0);
    expect(calls).toHaveLength(file("nova-scheduler.log").split("Starting to schedule for instances").length - 1);
    for (const call of calls) {
      const mine = call.instanceUuids.map((u) => servers.find((s) => s.ID === u)!);
      if (mine.every((s) => s.Status === "ERROR")) {
        expect(call.error).toBe("NoValidHost");
        expect(call.selected).toEqual([]);
      } else {
        expect(call.error).toBeNull();
        expect(call.selected.map((s) => s.host)).toEqual(mine.map((s) => s.Host));
      }
      expect(call.placementQuery).toMatch(/resources=/);
    }
  });

  it("the boot that no aggregate takes names each host its filter removed, with Nova's words", async () => {
    const { calls } = await read();
    const failed = calls.find((c) => c.passes[0]?.filters.some((f) => f.hostsLeft === 0))!;
    const agg = failed.passes[0].filters.find((f) => f.name === "AggregateInstanceExtraSpecsFilter")!;
    expect(agg.hostsLeft).toBe(0);
    expect(agg.removed.sort()).toEqual(cloud.hosts.map((h: { name: string }) => h.name).sort());
    for (const r of agg.reasons) expect(r).toMatch(/^fails flavor extra_specs requirements/);
  });

  it("the replay on the cloud before the boots agrees with every call", async () => {
    const { calls } = await read();
    for (const call of calls) {
      const e = explainCall(call, {
        cloudAsOf: currentCloudAsOf(cloud, "real cloud"),
        requestFor: requestFor(cloud.flavors),
      });
      expect(e.differences, call.requestId).toEqual([]);
      expect(e.replayed).not.toBeNull();
    }
  });

  it("from INFO lines alone, the filter NoValidHost is explained by its counts and the replay's reasons", async () => {
    const info = file("nova-scheduler.log")
      .split("\n")
      .filter((l) => / INFO /.test(l))
      .join("\n");
    const { calls } = await readAllCalls([
      input("nova-scheduler.log", info),
      input("placement.log", file("placement.log")),
    ]);
    const failed = calls.find((c) => c.filterResults)!;
    expect(failed.debug).toBe(false);
    const e = explainCall(failed, {
      cloudAsOf: currentCloudAsOf(cloud, "real cloud"),
      requestFor: requestFor(cloud.flavors),
    });
    expect(e.logged.filters.at(-1)).toEqual(["AggregateInstanceExtraSpecsFilter", 0]);
    expect(e.differences.filter((d) => d.cause !== "log")).toEqual([]);
    const words = infoOnly(failed, e)!;
    expect(words.logged).toMatch(/AggregateInstanceExtraSpecsFilter removed the last 6 host/);
    expect(words.replay).toMatch(/AggregateInstanceExtraSpecsFilter removed cmp-/);
    expect(words.setting).toMatch(/nova\.scheduler=DEBUG,nova\.filters=DEBUG,nova\.weights=DEBUG$/);
  });
});

describe("npm run -s explain", () => {
  it("prints one JSON line per scheduling call, with the logged and replayed sides", async () => {
    const { spawnSync } = await import("node:child_process");
    // one success and one NoValidHost (every example is checked through explainCall above)
    const lines = ["gpu-az", "s0002"].flatMap((name) => {
      const r = spawnSync(
        process.execPath,
        [
          path.resolve("node_modules/tsx/dist/cli.mjs"),
          "lib/nova-logs/cli.ts",
          "--cloud",
          path.join(EXAMPLES, `${name}.scenario.json`),
          path.join(EXAMPLES, `${name}.nova.log`),
        ],
        { encoding: "utf8" },
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/scheduling call\(s\) in \d+ line\(s\); skipped 0 unparsed/);
      return r.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
    });
    expect(lines).toHaveLength(2);
    for (const l of lines) {
      expect(Object.keys(l)).toEqual([
        "request_id",
        "attempt",
        "instance_uuids",
        "logged",
        "replayed",
        "agree",
        "differences",
      ]);
      expect(Object.keys(l.logged)).toEqual(["filters", "selected", "error"]);
      expect(l.agree).toBe(true);
    }
  }, 120_000);

  it("refuses a missing cloud or log with its usage", async () => {
    const { spawnSync } = await import("node:child_process");
    const r = spawnSync(
      process.execPath,
      [path.resolve("node_modules/tsx/dist/cli.mjs"), "lib/nova-logs/cli.ts", "x.log"],
      {
        encoding: "utf8",
      },
    );
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/usage: npm run -s explain -- --cloud CLOUD.json LOG/);
  });
});
