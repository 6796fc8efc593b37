import { describe, expect, it } from "vitest";
import type { ExportedCloud } from "@/lib/cloud/scenario-io";
import { diffLines, diffSnapshots } from "./diff";

type Doc = Record<string, unknown> & { hosts: Record<string, unknown>[] };

function host(name: string, over: Record<string, unknown> = {}) {
  return {
    name,
    vcpus: 32,
    vcpus_used: 4,
    memory_mb: 65536,
    memory_mb_used: 8192,
    local_gb: 1000,
    local_gb_used: 100,
    service: { disabled: false, up: true, forced_down: false },
    instances: [] as string[],
    ...over,
  };
}

function base(): Doc {
  return {
    config: {},
    hosts: [host("cmp-1", { instances: ["i-1", "i-2"] }), host("cmp-2", { instances: ["i-3"] }), host("cmp-3")],
    aggregates: [
      { name: "az1", availability_zone: "az1", hosts: ["cmp-1", "cmp-2"], metadata: { ssd: "true" } },
      { name: "gpu", hosts: ["cmp-3"], metadata: {} },
    ],
    server_groups: [{ name: "web", uuid: "g-1", policy: "anti-affinity", members: ["i-1", "i-3"] }],
    flavors: [{ name: "m1.small", vcpus: 1, memory_mb: 2048, root_gb: 20, extra_specs: {} }],
    images: [{ id: "img-1", name: "cirros", properties: {} }],
    instances: [
      { uuid: "i-1", name: "web-1", flavor: "m1.small" },
      { uuid: "i-2", name: "db-1" },
      { uuid: "i-3", name: "web-2" },
    ],
  };
}

const asCloud = (d: Doc) => d as unknown as ExportedCloud;
const hostOf = (d: Doc, name: string) => d.hosts.find((h) => h.name === name)!;

describe("diffSnapshots: each kind of change is reported in its section, and only there", () => {
  const cases: { name: string; change: (d: Doc) => void; expect: (diff: ReturnType<typeof diffSnapshots>) => void }[] =
    [
      {
        name: "a host added",
        change: (d) => d.hosts.push(host("cmp-4")),
        expect: (x) => {
          expect(x.hosts.added).toEqual(["cmp-4"]);
          expect(x.counts.hosts).toBe(1);
        },
      },
      {
        name: "a host removed (its instances are un-hosted, not moved)",
        change: (d) => {
          d.hosts = d.hosts.filter((h) => h.name !== "cmp-3");
        },
        expect: (x) => {
          expect(x.hosts.removed).toEqual(["cmp-3"]);
          expect(x.instances.moved).toEqual([]);
        },
      },
      {
        name: "a host disabled",
        change: (d) => {
          hostOf(d, "cmp-2").service = { disabled: true, disabled_reason: "maintenance", up: true, forced_down: false };
        },
        expect: (x) => {
          expect(x.hosts.disabled).toEqual(["cmp-2"]);
          expect(x.hosts.enabled).toEqual([]);
          expect(x.hosts.changed).toEqual([{ name: "cmp-2", fields: ["service.disabled", "service.disabled_reason"] }]);
        },
      },
      {
        name: "a host's usage changed",
        change: (d) => {
          hostOf(d, "cmp-1").memory_mb_used = 16384;
        },
        expect: (x) => {
          expect(x.hosts.changed).toEqual([{ name: "cmp-1", fields: ["memory_mb_used"] }]);
          expect(x.usage.find((u) => u.az === "az1")!.after.memory_mb_used).toBe(16384 + 8192);
          expect(x.usage.find((u) => u.az === "az1")!.before.memory_mb_used).toBe(8192 + 8192);
        },
      },
      {
        name: "aggregate metadata set, changed and unset; a host joins",
        change: (d) => {
          const a = (d.aggregates as Record<string, unknown>[])[0];
          a.metadata = { ssd: "false", filter_tenant_id: "p1" };
          a.hosts = ["cmp-1", "cmp-2", "cmp-3"];
          (d.aggregates as Record<string, unknown>[])[1].metadata = {};
        },
        expect: (x) => {
          expect(x.aggregates.metadata).toEqual([
            { aggregate: "az1", key: "filter_tenant_id", before: null, after: "p1" },
            { aggregate: "az1", key: "ssd", before: "true", after: "false" },
          ]);
          expect(x.aggregates.hostsAdded).toEqual([{ aggregate: "az1", host: "cmp-3" }]);
          // cmp-3 moves from the default AZ to az1
          expect(x.usage.map((u) => [u.az, u.before.hosts, u.after.hosts])).toEqual([
            ["az1", 2, 3],
            ["nova", 1, 0],
          ]);
        },
      },
      {
        name: "a flavor's extra spec changed, an image added",
        change: (d) => {
          (d.flavors as Record<string, unknown>[])[0].extra_specs = { "hw:cpu_policy": "dedicated" };
          (d.images as unknown[]).push({ id: "img-2", name: "ubuntu", properties: {} });
        },
        expect: (x) => {
          expect(x.flavors.changed).toEqual([{ name: "m1.small", fields: ["extra_specs"] }]);
          expect(x.images.added).toEqual(["ubuntu"]);
        },
      },
      {
        name: "instances created, deleted and moved; a group's members change",
        change: (d) => {
          hostOf(d, "cmp-1").instances = ["i-1"]; // i-2 deleted
          hostOf(d, "cmp-2").instances = [];
          hostOf(d, "cmp-3").instances = ["i-3", "i-4"]; // i-3 moved, i-4 created
          d.instances = [
            { uuid: "i-1", name: "web-1", flavor: "m1.small" },
            { uuid: "i-3", name: "web-2" },
            { uuid: "i-4", name: "web-3" },
          ];
          (d.server_groups as Record<string, unknown>[])[0].members = ["i-1", "i-3", "i-4"];
        },
        expect: (x) => {
          expect(x.instances.created).toEqual([{ uuid: "i-4", host: "cmp-3", name: "web-3" }]);
          expect(x.instances.deleted).toEqual(["i-2"]);
          expect(x.instances.moved).toEqual([{ uuid: "i-3", name: "web-2", from: "cmp-2", to: "cmp-3" }]);
          expect(x.serverGroups.changed).toEqual([{ name: "web", fields: ["members"] }]);
          // instances never count as a host change
          expect(x.hosts.changed).toEqual([]);
        },
      },
    ];

  it.each(cases)("$name", ({ change, expect: check }) => {
    const a = base();
    const b = base();
    change(b);
    check(diffSnapshots(asCloud(a), asCloud(b)));
  });

  it("two equal snapshots differ in nothing", () => {
    const d = diffSnapshots(asCloud(base()), asCloud(base()));
    expect(Object.values(d.counts).every((n) => n === 0)).toBe(true);
    // the CLI prints only the usage lines then
    expect(diffLines(d).every((l) => l.section === "usage")).toBe(true);
  });

  it("the CLI's lines name the section and the change", () => {
    const b = base();
    b.hosts.push(host("cmp-9"));
    const lines = diffLines(diffSnapshots(asCloud(base()), asCloud(b)));
    expect(lines[0]).toEqual({ section: "hosts", change: "added", host: "cmp-9" });
  });
});
