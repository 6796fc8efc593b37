import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openSession, Scheduler, schedule } from "./engine";
import type { HostFilter, HostWeigher } from "./plugin";
import { NovaError } from "./python";
import { toResult } from "./result";
import type { Scenario, ScenarioHost, ScenarioServerGroup } from "./scenario";

function host(name: string, over: Partial<ScenarioHost> = {}): ScenarioHost {
  return { name, vcpus: 16, memory_mb: 65536, local_gb: 1000, cell: "cell1", ...over };
}

function scenario(over: Partial<Scenario> & { hosts: ScenarioHost[] }): Scenario {
  return {
    config: { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"] },
    request: { flavor: { name: "m1.small", vcpus: 2, memory_mb: 4096, root_gb: 20 } },
    ...over,
  };
}

describe("NoValidHost explains itself", () => {
  it('summarises every filter that removed hosts, in the "0/N hosts available" style', () => {
    const hosts = [
      ...Array.from({ length: 3 }, (_, i) =>
        host(`off-${i}`, { service: { disabled: true, disabled_reason: "maintenance" } }),
      ),
      ...Array.from({ length: 2 }, (_, i) => host(`plain-${i}`)),
    ];
    const r = toResult(
      schedule(
        scenario({
          hosts,
          config: { enabled_filters: ["ComputeFilter", "AggregateInstanceExtraSpecsFilter"], weighers: ["RAMWeigher"] },
          request: {
            flavor: {
              name: "gpu",
              vcpus: 2,
              memory_mb: 4096,
              extra_specs: { "aggregate_instance_extra_specs:gpu": "true" },
            },
          },
        }),
      ),
    );
    expect(r.error).toBe("NoValidHost");
    expect(r.diagnosis?.summary).toBe(
      "0/5 hosts available: 3 compute service disabled (maintenance), 2 missing aggregate metadata gpu=true",
    );
    expect(r.diagnosis?.lastFilter).toBe("AggregateInstanceExtraSpecsFilter");
    expect(r.requests[0].funnel[1].reasons).toEqual([
      "missing aggregate metadata gpu=true",
      "missing aggregate metadata gpu=true",
    ]);
  });
});

describe("multi-instance requests consume the chosen host", () => {
  it("spreads by free RAM as the chosen host loses the flavor RAM", () => {
    const r = toResult(
      schedule(
        scenario({
          hosts: [host("a", { memory_mb: 10000 }), host("b", { memory_mb: 9000 })],
          request: { flavor: { name: "x", vcpus: 1, memory_mb: 2000 }, num_instances: 3 },
        }),
      ),
    );
    // a (10000) → b (9000 > 8000) → a (8000 > 7000)
    expect(r.requests.map((q) => q.chosen)).toEqual(["a", "b", "a"]);
  });
});

describe("a multi-instance request's own instances are members of its server group", () => {
  const three = [host("a"), host("b"), host("c")];
  const grouped = (policy: string, rules: Record<string, number>, placement: boolean, num_instances: number) =>
    scenario({
      hosts: three,
      config: {
        enabled_filters: ["ComputeFilter", "ServerGroupAntiAffinityFilter"],
        weighers: ["RAMWeigher"],
        placement,
      },
      server_groups: [{ name: "web", policy: policy as ScenarioServerGroup["policy"], rules, members: [] }],
      request: {
        flavor: { name: "m1.small", vcpus: 2, memory_mb: 4096, root_gb: 20 },
        num_instances,
        server_group: "web",
      },
    });
  // [case, Placement path, group rules, instances, error, instances placed, most on one host]
  it.each([
    ["anti-affinity: three instances on three hosts", false, {}, 3, null, 3, 1],
    ["anti-affinity, Placement path: three instances on three hosts", true, {}, 3, null, 3, 1],
    ["anti-affinity: a fourth instance finds no host", false, {}, 4, "NoValidHost", 0, 0],
    ["anti-affinity, Placement path: a fourth instance finds no host", true, {}, 4, "NoValidHost", 0, 0],
    ["max_server_per_host 2: four instances, one host holds two", false, { max_server_per_host: 2 }, 4, null, 4, 2],
    ["max_server_per_host 2: seven instances find no host", false, { max_server_per_host: 2 }, 7, "NoValidHost", 0, 0],
  ])("%s", (_, placement, rules, n, error, placed, most) => {
    const r = toResult(schedule(grouped("anti-affinity", rules, placement, n)));
    expect(r.error).toBe(error);
    expect(r.selections.length).toBe(placed);
    const perHost = new Map<string, number>();
    for (const s of r.selections) perHost.set(s.host, (perHost.get(s.host) ?? 0) + 1);
    expect(Math.max(0, ...perHost.values())).toBe(most);
  });
  it("the funnel names the earlier instance of the request that fills a host", () => {
    const r = toResult(schedule(grouped("anti-affinity", {}, false, 2)));
    const row = r.requests[1].funnel.find((f) => f.filter === "ServerGroupAntiAffinityFilter");
    expect(row?.rejected).toEqual(["a"]);
    expect(row?.reasons).toEqual([
      "already holds instance 1 of this request (1 of anti-affinity group web; max_server_per_host 1)",
    ]);
  });
});

describe("stored placement_prefilters", () => {
  const hosts = [
    host("full", { vcpus: 4, vcpus_used: 15, cpu_allocation_ratio: 4.0 }), // 16 - 15 = 1 free vCPU
    host("gpu", { traits: ["HW_GPU_API_VULKAN"] }),
    host("plain"),
  ];
  const run = (placement_prefilters: string[]) =>
    toResult(
      schedule(
        scenario({
          hosts,
          config: { placement_prefilters, enabled_filters: [], weighers: ["RAMWeigher"] },
          request: {
            flavor: { name: "x", vcpus: 2, memory_mb: 4096, extra_specs: { "trait:HW_GPU_API_VULKAN": "required" } },
          },
        }),
      ),
    );
  it.each([
    [["resources"], ["gpu"], "lacks trait HW_GPU_API_VULKAN"],
    [["traits", "compute_status", "availability_zone"], ["gpu"], "lacks trait HW_GPU_API_VULKAN"],
  ])("%j run Nova's Placement path instead", (prefilters, kept, firstReason) => {
    const r = run(prefilters);
    const step = r.requests[0].funnel[0];
    expect(step.filter).toBe("Placement");
    expect(r.requests[0].weighed.map((w) => w.host)).toEqual(kept);
    expect(step.reasons[0]).toBe(firstReason);
  });
  it("refuse a name Nova has no equivalent for, naming it", () => {
    expect(schedule(scenario({ hosts, config: { placement_prefilters: ["resources", "magic"] } })).error?.message).toBe(
      'config.placement_prefilters[1]: "magic" has no Nova equivalent; use placement: true and the [scheduler] options',
    );
  });
  it("an empty list is the placement-less path, so reference comparisons stay exact", () => {
    const r = toResult(
      schedule(scenario({ hosts, config: { placement_prefilters: [], enabled_filters: ["ComputeFilter"] } })),
    );
    expect(r.requests[0].funnel.map((f) => f.filter)).toEqual(["ComputeFilter"]);
  });
});

describe("randomness is injected", () => {
  const hosts = Array.from({ length: 6 }, (_, i) => host(`h${i}`));
  const sc = () => scenario({ hosts, config: { enabled_filters: [], weighers: ["RAMWeigher"], host_subset_size: 3 } });
  it("without a random source the best host wins, as in the Nova reference", () => {
    expect(toResult(schedule(sc())).selections[0].host).toBe("h0");
  });
  it("with one, host_subset_size picks among the best N like random.choice", () => {
    expect(toResult(schedule(sc(), { random: () => 0.99 })).selections[0].host).toBe("h2");
  });
});

describe("configuration is validated like nova.conf", () => {
  it.each([
    [{ enabled_filters: ["NoSuchFilter"] }, 'config.enabled_filters[0]: unknown filter "NoSuchFilter"', "KeyError"],
    [{ weighers: ["RAMWeigher", "Nope"] }, 'config.weighers[1]: unknown weigher "Nope"', "KeyError"],
    [
      { soft_affinity_weight_multiplier: -1 },
      "config.soft_affinity_weight_multiplier: should be greater than or equal to 0, got -1",
    ],
    [{ host_subset_size: 0 }, "config.host_subset_size: should be greater than or equal to 1, got 0"],
  ])("%j", (config, message, name = "ValueError") => {
    const run = schedule(scenario({ hosts: [host("a")], config }));
    expect(run.error).toEqual({ name, message });
  });
});

describe("alternates", () => {
  it("come from the chosen host’s cell only, at most max_attempts - 1", () => {
    const hosts = [
      host("a1", { memory_mb: 9000 }),
      host("b1", { cell: "cell2", memory_mb: 8000 }),
      host("a2", { memory_mb: 7000 }),
      host("a3", { memory_mb: 6000 }),
      host("a4", { memory_mb: 5000 }),
    ];
    const r = toResult(
      schedule(scenario({ hosts, config: { enabled_filters: [], weighers: ["RAMWeigher"], max_attempts: 3 } })),
    );
    expect(r.selections).toEqual([{ host: "a1", alternates: ["a2", "a3"] }]);
  });
});

describe("filters and weighers read host by host, with Nova's answers and errors", () => {
  const raising = (name: string, on: string): HostFilter => ({
    name,
    runOncePerRequest: false,
    check: (h) => {
      if (h.host === on) throw new NovaError("KeyError", `${name} on ${h.host}`);
      return h.host.endsWith("x") ? { code: "TEST", message: `${name} drops ${h.host}` } : null;
    },
  });
  const weigher = (name: string, on: string): HostWeigher => ({
    name,
    weigh: (h) => {
      if (h.host === on) throw new NovaError("KeyError", `${name} on ${h.host}`);
      return h.freeRamMb;
    },
    multiplier: () => ({ value: 1, source: "test" }),
  });
  const session = (names: string[]) => openSession(scenario({ hosts: names.map((n) => host(n)) }));
  const scheduler = (names: string[], filters: HostFilter[], weighers: HostWeigher[] = []) => {
    const { config, hosts, spec } = session(names);
    return { s: new Scheduler(config, hosts, spec, filters, weighers, () => new Date(0)), hosts };
  };

  it.each([
    // Nova runs the first filter over every host before the second sees any:
    // its error on the second host comes before the second filter's on the first.
    { filters: [raising("A", "h2"), raising("B", "h1")], error: "A on h2" },
    { filters: [raising("A", "none"), raising("B", "h1")], error: "B on h1" },
    // a host the first filter dropped never meets the second, which raises on it
    { filters: [raising("A", "none"), raising("B", "h1x")], error: null },
  ])("filters raising on hosts → $error", ({ filters, error }) => {
    const { s, hosts } = scheduler(["h1", "h1x", "h2"], filters);
    if (error) expect(() => s.runFilters(hosts, 0)).toThrow(error);
    else expect(s.runFilters(hosts, 0).passed.map((h) => h.host)).toEqual(["h1", "h2"]);
  });

  it.each([
    { minval: undefined, value: 5 },
    { minval: 0, value: 5 },
    { minval: 7, value: 5 },
  ])(
    "a weigher that weighs every host the same (minval $minval) gives the columns and weights of one that says nothing",
    ({ minval, value }) => {
      const names = ["h1", "h2", "h3"];
      const plain: HostWeigher = {
        name: "W",
        minval,
        weigh: () => value,
        multiplier: () => ({ value: 2, source: "test" }),
      };
      const said: HostWeigher = { ...plain, sameForEveryHost: () => value };
      const ram = weigher("RAM", "none");
      const a = scheduler(names, [], [plain, ram]);
      const b = scheduler(names, [], [said, ram]);
      const [wa, wb] = [a.s.weigh(a.hosts), b.s.weigh(b.hosts)];
      expect([...wb.weights]).toEqual([...wa.weights]);
      expect(wb.columns.map((c) => [[...c.raw], [...c.normalized]])).toEqual(
        wa.columns.map((c) => [[...c.raw], [...c.normalized]]),
      );
    },
  );

  it("raise the first weigher's error, as Nova weighs weigher after weigher", () => {
    const { s, hosts } = scheduler(["h1", "h2"], [], [weigher("X", "h2"), weigher("Y", "h1")]);
    expect(() => s.weigh(hosts)).toThrow("X on h2");
  });

  it("give each filter's funnel row its hosts in order and stop after the filter that leaves none", () => {
    const { s, hosts } = scheduler(
      ["ax", "b", "cx", "d"],
      [
        raising("A", "none"),
        { name: "B", runOncePerRequest: false, check: () => ({ code: "TEST", message: "B drops all" }) },
        raising("C", "none"),
      ],
    );
    const { passed, funnel } = s.runFilters(hosts, 0);
    expect(passed).toEqual([]);
    expect(funnel.map((f) => [f.filter, f.in, f.out, f.rejected.map((h) => h.host)])).toEqual([
      ["A", 4, 2, ["ax", "cx"]],
      ["B", 2, 0, ["b", "d"]],
    ]);
  });
});

describe("a filter that says it passes every host for a request does", () => {
  const dir = path.join(__dirname, "conformance", "fixtures");
  const scenarios = readdirSync(dir)
    .filter((f) => f.endsWith(".scenario.json"))
    .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Scenario);

  it("on every conformance scenario, asked the way the engine asks", () => {
    let asked = 0;
    for (const sc of scenarios) {
      let session: ReturnType<typeof openSession>;
      try {
        session = openSession(sc);
      } catch {
        continue; // refused before any host is filtered
      }
      for (const f of session.scheduler.filters) {
        try {
          f.prepare?.(session.spec);
          if (!f.passesEveryHost?.(session.spec)) continue;
          asked++;
          for (const h of session.hosts) expect(f.check(h, session.spec), `${f.name} on ${h.host}`).toBeNull();
        } catch (e) {
          if (!(e instanceof NovaError)) throw e;
        }
      }
    }
    expect(asked).toBeGreaterThan(500);
  });
});

describe("a weigher that says every host weighs the same for a request does", () => {
  const dir = path.join(__dirname, "conformance", "fixtures");
  it("on every conformance scenario", () => {
    let asked = 0;
    for (const f of readdirSync(dir).filter((f) => f.endsWith(".scenario.json"))) {
      let session: ReturnType<typeof openSession>;
      try {
        session = openSession(JSON.parse(readFileSync(path.join(dir, f), "utf8")) as Scenario);
      } catch {
        continue;
      }
      for (const w of session.scheduler.weighers) {
        const same = w.sameForEveryHost?.(session.spec);
        if (same === undefined) continue;
        asked++;
        for (const h of session.hosts)
          expect(Object.is(w.weigh(h, session.spec), same), `${w.name} on ${h.host}`).toBe(true);
      }
    }
    expect(asked).toBeGreaterThan(500);
  });
});
