/**
 * Every shared example -> the bundle its cloud would give (written as the
 * real clients print it, lib/testing/openstack-bundle.ts) -> import ->
 * export with the example's request: Nova (the reference) answers it as it
 * answers the example itself imported directly through the same importer,
 * reduced to what a bundle can carry (when the two exports differ only in
 * what the reference ignores, they are the same question and the reference
 * is not asked twice).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exportCloud, importCloud } from "@/lib/cloud/scenario-io";
import { stableStringify } from "@/lib/scenario/json";
import { stableUuid } from "@/lib/scheduler/nova-uuid";
import { assertNovaReferenceAvailable, exampleFiles, readExample, runNovaReference } from "@/lib/testing/cloud";
import { bundleCarriable, scenarioToBundle } from "@/lib/testing/openstack-bundle";
import { createTestDatabase, type TestDatabase } from "@/lib/testing/test-db";
import { applyImport, prepareImport } from "./import";
import { effectiveConfig } from "./nova-conf";

type Row = Record<string, unknown>;

/** SCENARIO.md's defaults for NUMA cells and PCI pools, filled in so that equal meanings compare equal. */
function withDefaults(key: string, v: unknown): unknown {
  if (key === "numa_topology") {
    return {
      cells: ((v as { cells: Row[] }).cells ?? []).map((c) => {
        const cpus = [...((c.cpuset ?? []) as number[]), ...((c.pcpuset ?? []) as number[])];
        const all = [...new Set(cpus)].sort((a, b) => a - b);
        return {
          cpu_usage: 0,
          memory_usage: 0,
          pinned_cpus: [],
          siblings: all.map((x) => [x]),
          socket: null,
          ...c,
          mempages: ((c.mempages ?? [{ size_kb: 4, total: (c.memory as number) * 256 }]) as Row[]).map((m) => ({
            used: 0,
            reserved: 0,
            ...m,
          })),
        };
      }),
    };
  }
  if (key === "pci_device_pools") return (v as Row[]).map((p) => ({ numa_node: null, tags: {}, ...p }));
  if (key === "inventories")
    return Object.fromEntries(
      Object.entries(v as Record<string, Row>).map(([rc, i]) => [
        rc,
        { reserved: 0, allocation_ratio: 1.0, min_unit: 1, max_unit: i.total, step_size: 1, used: 0, ...i },
      ]),
    );
  if (key === "child_providers")
    return (v as Row[]).map((c) => {
      const inventories = withDefaults("inventories", c.inventories ?? {}) as Record<string, Row>;
      // an inventory's "used" and the provider's usages say the same
      const usages = Object.fromEntries(
        Object.entries(inventories)
          .map(([rc, i]) => [rc, ((c.usages ?? {}) as Row)[rc] ?? i.used] as const)
          .filter(([, n]) => n !== 0),
      );
      for (const i of Object.values(inventories)) delete i.used;
      return { parent: null, traits: [], name: c.name, inventories, usages };
    });
  return v;
}

/**
 * What the reference reads of an exported scenario: without the Schedscope
 * lists (flavors, images, instances), the uuids a bundle adds where the
 * reference would invent the same (host: uuid5 of its name), and the config
 * with Nova's defaults filled in.
 */
function answerRelevant(doc: Row): Row {
  const d = structuredClone(doc) as Row;
  delete d.flavors;
  delete d.images;
  delete d.instances;
  for (const h of d.hosts as Row[]) if (h.uuid === stableUuid(String(h.name))) delete h.uuid;
  for (const a of (d.aggregates ?? []) as Row[]) delete a.uuid;
  for (const g of (d.server_groups ?? []) as Row[]) delete g.project_id;
  d.config = effectiveConfig((d.config ?? {}) as Row);
  return d;
}

function asFiles(bundle: Map<string, string>): Map<string, Buffer> {
  return new Map([...bundle].map(([k, v]) => [k, Buffer.from(v)]));
}

describe("shared example -> bundle -> import -> export: Nova answers the same", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    assertNovaReferenceAvailable();
    t = await createTestDatabase();
  });
  afterAll(async () => t?.cleanup());

  it.each(exampleFiles())("%s", { timeout: 120_000 }, async (file) => {
    const original = readExample(file);
    const prepared = prepareImport(asFiles(scenarioToBundle(original)));

    // NUMA, PCI pools, PCPUs, inventories and traits come out as the scenario format has them
    const hosts = original.hosts as Row[];
    prepared.doc.hosts.forEach((h, i) => {
      expect(h.name).toBe(hosts[i].name);
      expect(h.node ?? h.name).toBe(hosts[i].node ?? hosts[i].name);
      for (const k of ["numa_topology", "pci_device_pools", "traits", "pcpus", "inventories", "child_providers"]) {
        if (hosts[i][k] !== undefined && !(k === "traits" && (hosts[i][k] as unknown[]).length === 0))
          expect(withDefaults(k, h[k]), `${h.name}.${k}`).toEqual(withDefaults(k, hosts[i][k]));
      }
    });
    if (original.config)
      expect(effectiveConfig(prepared.doc.config as Row)).toEqual(effectiveConfig(original.config as Row));

    await applyImport(t.prisma, prepared);
    const viaBundle = await exportCloud(t.prisma, { request: original });

    // the same cloud imported directly, reduced to what a bundle carries, through the same importer
    await importCloud(t.prisma, bundleCarriable(original));
    const direct = await exportCloud(t.prisma, { request: original });
    if (stableStringify(answerRelevant(viaBundle)) !== stableStringify(answerRelevant(direct))) {
      // documents differ beyond what the reference ignores: Nova must still answer the same
      expect(runNovaReference(JSON.parse(stableStringify(viaBundle)))).toEqual(
        runNovaReference(JSON.parse(stableStringify(direct))),
      );
    }
    expect(viaBundle.hosts.map((h) => h.name)).toEqual(hosts.map((h) => h.name));
  });
});
