import { describe, expect, it } from "vitest";
import { type Cloud, type DrainStep, type DrainSummary, drainHosts } from "./drain";

const FLAVORS = [
  { name: "small", vcpus: 1, memory_mb: 2048, root_gb: 10 },
  { name: "big", vcpus: 8, memory_mb: 16384, root_gb: 40 },
];

function cloud(extra: Partial<Cloud> = {}): Cloud {
  const host = (name: string, instances: Array<[string, "small" | "big"]>) => {
    const fs = instances.map(([, f]) => FLAVORS.find((x) => x.name === f)!);
    return {
      name,
      vcpus: 16,
      memory_mb: 32768,
      local_gb: 400,
      instances: instances.map(([u]) => u),
      vcpus_used: fs.reduce((a, f) => a + f.vcpus, 0),
      memory_mb_used: fs.reduce((a, f) => a + f.memory_mb, 0),
      local_gb_used: fs.reduce((a, f) => a + f.root_gb, 0),
      num_instances: fs.length,
    };
  };
  return {
    config: {
      enabled_filters: ["ComputeFilter", "ServerGroupAntiAffinityFilter"],
      weighers: ["RAMWeigher"],
      placement: true,
    },
    hosts: [
      host("h1", [
        ["a", "small"],
        ["b", "big"],
      ]),
      host("h2", [["c", "big"]]),
      host("h3", []),
    ],
    flavors: FLAVORS,
    instances: [
      { uuid: "a", flavor: "small" },
      { uuid: "b", flavor: "big" },
      { uuid: "c", flavor: "big" },
    ],
    ...extra,
  };
}

function drain(c: Cloud, hosts: string[]) {
  const lines = [...drainHosts(c, hosts)];
  return { steps: lines.slice(0, -1) as DrainStep[], summary: lines[lines.length - 1] as DrainSummary };
}

describe("draining a host", () => {
  it("moves every instance, each committed before the next", () => {
    const { steps, summary } = drain(cloud(), ["h1"]);
    // a goes to the emptiest host h3; then h3 holds it, and b still prefers h3 (30 GiB free vs 16)
    expect(steps.map((s) => [s.instance, s.operation, s.destination])).toEqual([
      ["a", "live-migrate", "h3"],
      ["b", "live-migrate", "h3"],
    ]);
    expect(summary).toMatchObject({ moved: 2, stranded: 0, more_hosts_needed: 0 });
  });
  it("strands an instance its anti-affinity group keeps off every host, and more hosts take it", () => {
    const c = cloud({ server_groups: [{ name: "g", policy: "anti-affinity", members: ["b", "c", "x"] }] });
    c.hosts[2].instances = ["x"];
    const { steps, summary } = drain(c, ["h1"]);
    const b = steps.find((s) => s.instance === "b")!;
    expect(b.destination).toBeNull();
    expect(b.stranded?.error).toBe("NoValidHost");
    expect(b.stranded?.funnel.at(-1)).toMatchObject({ filter: "ServerGroupAntiAffinityFilter", out: 0 });
    expect(summary).toMatchObject({ moved: 1, stranded: 1, more_hosts_needed: 1 });
  });
  it("keeps instances of one drained host off the other", () => {
    const { steps, summary } = drain(cloud(), ["h1", "h3"]);
    // h3 is disabled for the drain: a fits on h2, then b no longer does (Placement: 14 GiB free, 16 asked)
    expect(steps.map((s) => s.destination)).toEqual(["h2", null]);
    expect(summary.more_hosts_needed).toBe(1);
  });
  it("does not change the cloud it is given", () => {
    const c = cloud();
    const before = JSON.stringify(c);
    drain(c, ["h1"]);
    expect(JSON.stringify(c)).toBe(before);
  });
});

describe("losing a host", () => {
  it("evacuates its instances and names the ones stranded, with the worst loss per zone", async () => {
    const { sweepHostLosses } = await import("./lose-hosts");
    const c = cloud({ server_groups: [{ name: "g", policy: "anti-affinity", members: ["b", "c", "x"] }] });
    c.hosts[2].instances = ["x"];
    const sweep = sweepHostLosses(c);
    const h1 = sweep.losses.find((l) => l.host === "h1")!;
    expect(h1).toMatchObject({ instances: 2, evacuated: 1 });
    expect(h1.stranded.map((s) => [s.instance, s.error, s.last_filter])).toEqual([
      ["b", "NoValidHost", "ServerGroupAntiAffinityFilter"],
    ]);
    expect(sweep.worst_by_zone.nova).toMatchObject({ host: "h1", stranded: 1, hosts: 3 });
  });
});

describe("losing hosts together", () => {
  it("says how many hosts of a zone the cloud survives losing, and the first set it does not", async () => {
    const { survivableLosses } = await import("./lose-hosts");
    // three roomy hosts: any one lost is absorbed; two lost together leave 3 instances on one host of 32 GiB
    const r = survivableLosses(cloud(), "nova", 3);
    expect(r.survives).toBe(1);
    expect(r.first_failure?.hosts).toEqual(["h1", "h2"]);
  });
});

describe("losing a host whose node has its own name", () => {
  it("evacuates from that node", async () => {
    const { sweepHostLosses } = await import("./lose-hosts");
    const c = cloud();
    c.hosts[0].node = "h1.example";
    expect(sweepHostLosses(c, ["h1"]).losses[0]).toMatchObject({ evacuated: 2, stranded: [] });
  });
});

describe("draining pinned and PCI instances", () => {
  // h1 holds three instances pinned to 4 dedicated CPUs with one GPU each; h2 has
  // two cells of 4 CPUs and two GPUs: room for two of them, once each move is kept
  const cell = (id: number, cpus: number[]) => ({
    id,
    cpuset: cpus,
    pcpuset: cpus,
    memory: 16384,
    mempages: [{ size_kb: 4, total: 4194304, used: 0, reserved: 0 }],
  });
  const pinned = {
    name: "pinned.4",
    vcpus: 4,
    memory_mb: 2048,
    root_gb: 10,
    extra_specs: { "hw:cpu_policy": "dedicated", "pci_passthrough:alias": "gpu:1" },
  };
  const host = (name: string, instances: string[], cpus: number) => ({
    name,
    vcpus: 16,
    memory_mb: 32768,
    local_gb: 400,
    instances,
    numa_topology: {
      cells: [
        cell(
          0,
          [0, 1, 2, 3].map((c) => c + cpus),
        ),
        cell(
          1,
          [4, 5, 6, 7].map((c) => c + cpus),
        ),
      ],
    },
    pci_device_pools: [
      { vendor_id: "10de", product_id: "20b5", numa_node: 0, count: 1, tags: { dev_type: "type-PCI" } },
      { vendor_id: "10de", product_id: "20b5", numa_node: 1, count: 1, tags: { dev_type: "type-PCI" } },
    ],
  });
  const numaCloud = (): Cloud => ({
    config: {
      enabled_filters: ["ComputeFilter", "NUMATopologyFilter", "PciPassthroughFilter"],
      weighers: ["RAMWeigher"],
      pci_alias: [{ name: "gpu", vendor_id: "10de", product_id: "20b5", device_type: "type-PCI" }],
    },
    hosts: [host("h1", ["a", "b", "c"], 0), host("h2", [], 0)],
    flavors: [pinned],
    instances: ["a", "b", "c"].map((uuid) => ({ uuid, flavor: "pinned.4" })),
  });

  it("keeps the CPUs and devices each move took on its destination, so the third finds none", () => {
    const { steps, summary } = drain(numaCloud(), ["h1"]);
    // the first two take both cells of h2 and both GPUs (cold migration: the conductor refuses live-migrating PCI)
    expect(steps.map((s) => s.destination)).toEqual(["h2", "h2", null]);
    expect(steps[2].stranded?.error).toBe("NoValidHost");
    expect(summary).toMatchObject({ moved: 2, stranded: 1 });
  });
});
