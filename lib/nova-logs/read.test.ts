/**
 * Hostile and odd input: a log is text, lines that are not Nova's are
 * counted and skipped, nothing is held beyond the line limit, and a broken
 * file keeps what it gave.
 */
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { parseLogLine } from "./line";
import { type LogInput, readAllCalls } from "./read";

const RID = "req-11111111-2222-3333-4444-555555555555";
const at = (ms: number) => `2026-01-01 00:00:00.${String(ms).padStart(3, "0")}`;
const line = (ms: number, level: string, logger: string, msg: string, rid = RID) =>
  `${at(ms)} 4242 ${level} ${logger} [None ${rid} user project - - default default] ${msg}`;

/** A failed boot at INFO and DEBUG: Nova Zed's own message formats. */
const FAILED = [
  line(
    0,
    "DEBUG",
    "nova.scheduler.manager",
    "Starting to schedule for instances: ['ca4cd413-50e2-5193-8bcd-c99ffca8ded9'] select_destinations /usr/lib/python3/dist-packages/nova/scheduler/manager.py:141",
  ),
  line(
    1,
    "DEBUG",
    "nova.filters",
    "Starting with 2 host(s) get_filtered_objects /usr/lib/python3/dist-packages/nova/filters.py:70",
  ),
  line(
    2,
    "DEBUG",
    "nova.scheduler.filters.compute_filter",
    "(c2, c2) ram: 1024MB disk: 10240MB io_ops: 0 instances: 1 is disabled, reason: <script>alert(1)</script> host_passes /usr/lib/python3/dist-packages/nova/scheduler/filters/compute_filter.py:39",
  ),
  line(
    3,
    "DEBUG",
    "nova.filters",
    "Filter ComputeFilter returned 1 host(s) get_filtered_objects /usr/lib/python3/dist-packages/nova/filters.py:102",
  ),
  line(4, "INFO", "nova.filters", "Filter RamFilter returned 0 hosts"),
  line(
    5,
    "INFO",
    "nova.filters",
    "Filtering removed all hosts for the request with instance ID 'ca4cd413-50e2-5193-8bcd-c99ffca8ded9'. Filter results: ['ComputeFilter: (start: 2, end: 1)', 'RamFilter: (start: 1, end: 0)']",
  ),
  line(
    6,
    "DEBUG",
    "nova.scheduler.manager",
    "There are 0 hosts available but 1 instances requested to build. _ensure_sufficient_hosts /usr/lib/python3/dist-packages/nova/scheduler/manager.py:450",
  ),
];

const input = (name: string, data: string | Buffer, chunk = 1 << 16): LogInput => ({
  name,
  chunks: (async function* () {
    const b = Buffer.from(data);
    for (let i = 0; i < b.length; i += chunk) yield b.subarray(i, i + chunk);
  })(),
});

describe("reading hostile logs", () => {
  it.each<
    [string, () => LogInput[], Partial<Record<"unparsed" | "tooLong" | "binary" | "calls", number>>, RegExp | null]
  >([
    [
      "HTML and script in a message stay text",
      () => [input("a.log", FAILED.join("\n"))],
      { unparsed: 0, calls: 1 },
      null,
    ],
    [
      "a 1 MB line is skipped, the lines around it read",
      () => [
        input(
          "a.log",
          [FAILED[0], `${at(0)} 1 DEBUG x [-] ${"A".repeat(1 << 20)}`, ...FAILED.slice(1)].join("\n"),
          7000,
        ),
      ],
      { tooLong: 1, calls: 1 },
      null,
    ],
    [
      "binary lines are skipped and counted",
      () => [
        input(
          "a.log",
          Buffer.concat([
            Buffer.from(`${FAILED.join("\n")}\n`),
            Buffer.from([0xff, 0xfe, 0x00, 0x41, 0x0a]),
            Buffer.from("\u0000\u0001\n"),
          ]),
        ),
      ],
      { binary: 2, calls: 1 },
      null,
    ],
    ["a binary file is refused", () => [input("core", Buffer.alloc(10000, 0))], { calls: 0 }, /not a text log/],
    [
      "a truncated gzip keeps the lines before the end",
      () => {
        const gz = gzipSync(`${FAILED.join("\n")}\n${"padding line\n".repeat(5000)}`);
        return [input("a.log.gz", gz.subarray(0, gz.length - 40))];
      },
      { calls: 1 },
      /truncated gzip/,
    ],
    [
      "lines of no known format are counted",
      () => [input("a.log", `hello\n{"not": "journal"}\n${FAILED.join("\n")}\n[garbage`)],
      { unparsed: 3, calls: 1 },
      null,
    ],
  ])("%s", async (_name, inputs, counts, refused) => {
    const { calls, stats } = await readAllCalls(inputs());
    for (const [k, v] of Object.entries(counts)) expect(stats[k as keyof typeof counts], k).toBe(v);
    if (refused) expect(stats.refused.map((r) => r.reason).join()).toMatch(refused);
    else expect(stats.refused).toEqual([]);
    if (counts.calls) {
      expect(calls[0].error).toBe("NoValidHost");
      expect(calls[0].passes[0].filters[0]).toMatchObject({ name: "ComputeFilter", hostsLeft: 1, removed: ["c2"] });
    }
  });

  it("keeps a filter's words verbatim, markup and all", async () => {
    const { calls } = await readAllCalls([input("a.log", FAILED.join("\n"))]);
    expect(calls[0].passes[0].filters[0].reasons[0]).toBe("is disabled, reason: <script>alert(1)</script>");
  });
});

describe("INFO alone", () => {
  it("a NoValidHost is a call with the counts of 'Filtering removed all hosts'", async () => {
    const info = FAILED.filter((l) => l.includes(" INFO "));
    const { calls } = await readAllCalls([input("a.log", info.join("\n"))]);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      debug: false,
      error: "NoValidHost",
      instanceUuids: ["ca4cd413-50e2-5193-8bcd-c99ffca8ded9"],
    });
    expect(calls[0].filterResults?.filters).toEqual([
      { name: "ComputeFilter", start: 2, end: 1, hosts: null },
      { name: "RamFilter", start: 1, end: 0, hosts: null },
    ]);
  });
});

describe("reschedules and retries", () => {
  it("a request asking the scheduler twice has two calls, attempts 1 and 2", async () => {
    const again = FAILED.map((l) => l.replace(/00:00:00\.(\d{3})/, (_m, ms) => `00:00:01.${ms}`));
    const { calls } = await readAllCalls([input("a.log", [...FAILED, ...again].join("\n"))]);
    expect(calls.map((c) => [c.requestId, c.attempt])).toEqual([
      [RID, 1],
      [RID, 2],
    ]);
  });
});

describe("line shapes", () => {
  it.each<[string, string, { requestId: string | null; logger: string; message: string; instance?: string | null }]>([
    [
      "oslo default with the DEBUG suffix",
      line(
        0,
        "DEBUG",
        "nova.scheduler.manager",
        "Filtered [] _get_sorted_hosts /usr/lib/python3/dist-packages/nova/scheduler/manager.py:610",
      ),
      { requestId: RID, logger: "nova.scheduler.manager", message: "Filtered []" },
    ],
    [
      "before Xena: nova.scheduler.filter_scheduler, old context",
      `2021-03-01 10:00:00.123 77 DEBUG nova.scheduler.filter_scheduler [req-abc user project - - -] Filtered [] _get_sorted_hosts /usr/lib/python3/site-packages/nova/scheduler/filter_scheduler.py:435`,
      { requestId: "req-abc", logger: "nova.scheduler.filter_scheduler", message: "Filtered []" },
    ],
    [
      "a global request id before the request id",
      `2026-01-01 00:00:00.000 1 INFO nova.filters [req-global req-local u p - - default default] [instance: ca4cd413-50e2-5193-8bcd-c99ffca8ded9] hello`,
      {
        requestId: "req-local",
        logger: "nova.filters",
        message: "hello",
        instance: "ca4cd413-50e2-5193-8bcd-c99ffca8ded9",
      },
    ],
    [
      "no context",
      `2026-01-01 00:00:00.000 1 INFO nova.scheduler.host_manager [-] Received a sync request`,
      { requestId: null, logger: "nova.scheduler.host_manager", message: "Received a sync request" },
    ],
    [
      "devstack under journald (short-iso), colours and all",
      `2026-01-01T00:00:00+0000 devstack nova-scheduler[99]: \u001b[00;32mDEBUG nova.filters [\u001b[01;36mNone req-x admin admin\u001b[00;32m] \u001b[01;35m\u001b[00;32mStarting with 1 host(s)\u001b[00m {{(pid=99) get_filtered_objects /opt/stack/nova/nova/filters.py:70}}`,
      { requestId: "req-x", logger: "nova.filters", message: "Starting with 1 host(s)" },
    ],
    [
      "oslo.log's own journal handler (-o json with LOGGER_NAME)",
      JSON.stringify({
        MESSAGE: "Filter ComputeFilter returned 1 host(s)",
        LOGGER_NAME: "nova.filters",
        PRIORITY: "7",
        REQUEST_ID: "req-j",
        __REALTIME_TIMESTAMP: "1767225600000000",
      }),
      { requestId: "req-j", logger: "nova.filters", message: "Filter ComputeFilter returned 1 host(s)" },
    ],
  ])("%s", (_name, text, want) => {
    expect(parseLogLine(text)).toMatchObject(want);
  });
});

describe("the setting that turns DEBUG on for the scheduler only", () => {
  it("keeps Nova's default levels and adds the scheduler's three loggers at DEBUG", async () => {
    const { SCHEDULER_DEBUG_SETTING } = await import("./info-only");
    const value = SCHEDULER_DEBUG_SETTING.split("default_log_levels = ")[1].split(",");
    expect(SCHEDULER_DEBUG_SETTING.startsWith("[DEFAULT]\n")).toBe(true);
    expect(value).toContain("glanceclient=WARN");
    expect(value).toContain("amqp=WARN");
    expect(value.slice(-3)).toEqual(["nova.scheduler=DEBUG", "nova.filters=DEBUG", "nova.weights=DEBUG"]);
  });
});
