/**
 * The demo cloud's consistency check: every host's usage is the sum of what
 * the instances on it hold (lib/cloud/usage.ts flavorAmounts), the way the
 * demo cloud was built (memory and disk usage include the host's
 * reservation), and its NUMA cells and PCI pools are possible (pinned CPUs
 * are dedicated CPUs and as many as the PCPU usage, nothing used below zero
 * or above its total). A commit that forgets a class (PCPU, a vGPU on a
 * child provider) breaks the next move of the instance ("the usage of HOST
 * must include instance …'s allocation"): this names it first.
 */
import type { ScenarioFlavor, ScenarioHost } from "@/lib/scheduler/scenario";
import { flavorAmounts } from "./usage";

export interface IntegrityCloud {
  hosts: ScenarioHost[];
  flavors?: ScenarioFlavor[];
  instances?: Array<{ uuid: string; flavor?: string | null }>;
}

const n0 = (v: unknown) => Number(v ?? 0) || 0;

/** The host's label in a problem: its name, and its node where that differs. */
function label(h: ScenarioHost): string {
  return h.node && h.node !== h.name ? `${h.name} (node ${h.node})` : h.name;
}

/** Every inconsistency found, one sentence each; empty when the cloud is consistent. */
export function cloudInconsistencies(cloud: IntegrityCloud): string[] {
  const flavors = new Map((cloud.flavors ?? []).map((f) => [f.name, f]));
  const flavorOf = new Map((cloud.instances ?? []).map((i) => [i.uuid, i.flavor ? flavors.get(i.flavor) : undefined]));
  const out: string[] = [];
  const seen = new Map<string, string>();
  for (const h of cloud.hosts) {
    const name = label(h);
    const held = new Map<string, number>();
    for (const uuid of h.instances ?? []) {
      const other = seen.get(uuid);
      if (other) out.push(`instance ${uuid} is on ${other} and on ${name}`);
      seen.set(uuid, name);
      const f = flavorOf.get(uuid);
      if (!f) continue;
      for (const [rc, n] of flavorAmounts(f, h)) held.set(rc, (held.get(rc) ?? 0) + n);
    }
    const expect = (what: string, actual: number, wanted: number) => {
      if (actual !== wanted) out.push(`${name}: ${what} is ${actual}, its instances hold ${wanted}`);
    };
    expect("VCPU used", n0(h.vcpus_used), held.get("VCPU") ?? 0);
    expect("PCPU used", n0(h.pcpus_used), held.get("PCPU") ?? 0);
    expect("MEMORY_MB used", n0(h.memory_mb_used) - n0(h.reserved_memory_mb), held.get("MEMORY_MB") ?? 0);
    expect("DISK_GB used", n0(h.local_gb_used) - n0(h.reserved_disk_gb), held.get("DISK_GB") ?? 0);
    expect("the instance count", n0(h.num_instances), (h.instances ?? []).length);
    const custom = new Map<string, number>();
    const add = (rc: string, n: number) => custom.set(rc, (custom.get(rc) ?? 0) + n);
    for (const [rc, inv] of Object.entries(h.inventories ?? {})) add(rc, n0(inv.used));
    for (const c of h.child_providers ?? [])
      for (const rc of Object.keys(c.inventories ?? {})) add(rc, n0(c.usages?.[rc] ?? c.inventories?.[rc]?.used));
    for (const rc of new Set([...custom.keys(), ...held.keys()])) {
      if (["VCPU", "PCPU", "MEMORY_MB", "DISK_GB"].includes(rc)) continue;
      expect(`${rc} used`, custom.get(rc) ?? 0, held.get(rc) ?? 0);
    }
    const cells = h.numa_topology?.cells ?? [];
    if (n0(h.pcpus) > 0 && cells.length) {
      const pinned = cells.reduce((s, c) => s + (c.pinned_cpus ?? []).length, 0);
      if (pinned !== n0(h.pcpus_used))
        out.push(`${name}: ${pinned} CPUs are pinned in its NUMA cells, its PCPU usage is ${n0(h.pcpus_used)}`);
    }
    for (const c of cells) {
      const pcpus = new Set(c.pcpuset ?? []);
      const pins = c.pinned_cpus ?? [];
      if (pins.some((x) => !pcpus.has(x))) out.push(`${name}: NUMA cell ${c.id} pins CPUs outside its pcpuset`);
      if (new Set(pins).size !== pins.length) out.push(`${name}: NUMA cell ${c.id} pins a CPU twice`);
      if (n0(c.memory_usage) < 0 || n0(c.memory_usage) > c.memory)
        out.push(`${name}: NUMA cell ${c.id} uses ${n0(c.memory_usage)} MiB of ${c.memory}`);
      if (n0(c.cpu_usage) < 0) out.push(`${name}: NUMA cell ${c.id} has a CPU usage below zero`);
      for (const p of c.mempages ?? [])
        if (n0(p.used) < 0 || n0(p.used) > p.total)
          out.push(`${name}: NUMA cell ${c.id} uses ${n0(p.used)} of ${p.total} ${p.size_kb} KiB pages`);
    }
    for (const p of h.pci_device_pools ?? [])
      if (p.count < 0) out.push(`${name}: PCI pool ${p.vendor_id}:${p.product_id} has ${p.count} devices`);
  }
  return out;
}
