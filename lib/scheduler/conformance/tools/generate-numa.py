#!/usr/bin/python3
"""Seeded random NUMA / pinned CPU / hugepage / PCI scenarios (stdlib only).

usage: generate-numa.py --seed N --count K --out DIR [--prefix numa-gen-] [--start I]

Scenario i depends only on (seed, i). Hosts get 1-4 NUMA cells (with or
without SMT, legacy cpuset == pcpuset or split shared/dedicated sets, pinned
CPUs, sibling sets in unusual orders, 4 KiB / 2 MiB / 1 GiB pages with usage,
sockets or none) and PCI pools (numa_node null/0/1, PF/VF/PCI, extra tags);
the config gets PCI aliases (every numa_policy and device_type, some invalid)
and the packing option; the request mixes every hw:* / image hw_* key Nova
reads for NUMA, several instances, and invalid combinations.
"""
import json
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import seeded_main  # noqa: E402

FILTER_POOL = ["ComputeFilter", "NUMATopologyFilter", "PciPassthroughFilter"]
EXTRA_FILTERS = ["AvailabilityZoneFilter", "ImagePropertiesFilter", "NumInstancesFilter", "AllHostsFilter"]
WEIGHERS = ["RAMWeigher", "CPUWeigher", "PCIWeigher", "DiskWeigher", "IoOpsWeigher"]
GPU = [("10de", "20b5"), ("10de", "2236"), ("8086", "1572"), ("15b3", "101e")]


def maybe(r, p):
    return r.random() < p


def host_cells(r, ncells, smt, style):
    """CPU numbering like libvirt: cell c has cores; a sibling of core k is k + total_cores."""
    cores_per_cell = r.choice([2, 3, 4, 6, 8])
    threads = 2 if smt else 1
    if smt and maybe(r, 0.1):
        threads = 4
    total_cores = cores_per_cell * ncells
    cells = []
    page_sizes = r.choice([[4], [4, 2048], [4, 1048576], [4, 2048, 1048576]])
    for c in range(ncells):
        cores = [c * cores_per_cell + k for k in range(cores_per_cell)]
        siblings = [[core + t * total_cores for t in range(threads)] for core in cores]
        if maybe(r, 0.3):
            for s in siblings:
                r.shuffle(s)
        cpus = sorted(x for s in siblings for x in s)
        if style == "legacy":
            cpuset, pcpuset = cpus, cpus
        elif style == "dedicated":
            cpuset, pcpuset = [], cpus
        elif style == "shared":
            cpuset, pcpuset = cpus, []
        else:  # split: some cores shared, the rest dedicated
            cut = r.randint(1, max(1, len(siblings) - 1))
            shared = sorted(x for s in siblings[:cut] for x in s)
            cpuset, pcpuset = shared, sorted(x for s in siblings[cut:] for x in s)
        memory = r.choice([8192, 16384, 32768, 65536])
        cell = {"id": c, "cpuset": cpuset, "pcpuset": pcpuset, "memory": memory}
        if smt or maybe(r, 0.3):
            cell["siblings"] = siblings
        if pcpuset and maybe(r, 0.6):
            cell["pinned_cpus"] = sorted(r.sample(pcpuset, r.randint(0, len(pcpuset) // (1 if maybe(r, 0.2) else 2))))
        if maybe(r, 0.5):
            cell["cpu_usage"] = r.randint(0, len(cpuset) * (3 if maybe(r, 0.2) else 1))
        if maybe(r, 0.6):
            cell["memory_usage"] = r.randint(0, memory // 2048 if maybe(r, 0.8) else memory // 1024) * 1024
        if maybe(r, 0.75):
            pages = []
            rest_kb = memory * 1024
            for size in sorted(page_sizes, reverse=True):
                if size == 4:
                    continue
                total = r.randint(0 if maybe(r, 0.2) else 1, (memory * 1024 // 2) // size)
                rest_kb -= total * size
                pages.append({"size_kb": size, "total": total, "used": r.randint(0, total // 2) if maybe(r, 0.5) else 0,
                              "reserved": r.randint(0, 1) if total and maybe(r, 0.2) else 0})
            small = {"size_kb": 4, "total": rest_kb // 4, "used": r.randint(0, rest_kb // 8)}
            cell["mempages"] = [small] + sorted(pages, key=lambda p: p["size_kb"])
        if maybe(r, 0.02):
            cell["mempages"] = []
        s = r.random()
        cell["socket"] = None if s < 0.15 else (c // 2 if s < 0.6 else c)
        cells.append(cell)
    return cells


def pools(r, ncells):
    out = []
    for _ in range(r.choice([0, 1, 1, 2, 2, 3])):
        vendor, product = r.choice(GPU[:2] if maybe(r, 0.7) else GPU)
        node = r.choice([None, 0, 1] + list(range(ncells)))
        dev_type = r.choice(["type-PCI", "type-PCI", "type-PF", "type-VF"])
        tags = {"dev_type": dev_type}
        if dev_type != "type-PCI":
            tags["remote_managed"] = r.choice(["false", "false", "true"])
            if maybe(r, 0.4):
                tags["physical_network"] = r.choice(["physnet1", "physnet2"])
        if maybe(r, 0.1):
            tags["capability_type"] = "pci"
        out.append({"vendor_id": vendor, "product_id": product, "numa_node": node,
                    "count": r.randint(0, 6), "tags": tags})
    return out


def aliases(r):
    out = []
    for i in range(r.randint(1, 3)):
        vendor, product = r.choice(GPU[:2] if maybe(r, 0.7) else GPU)
        a = {"name": r.choice(["gpu", "a100", "nic", "vf"]) if maybe(r, 0.12) else "alias%d" % i,
             "vendor_id": vendor, "product_id": product}
        if maybe(r, 0.6):
            a["device_type"] = r.choice(["type-PCI", "type-PCI", "type-PF", "type-VF"])
        if maybe(r, 0.6):
            a["numa_policy"] = r.choice(["legacy", "preferred", "required", "socket"])
        if maybe(r, 0.1):
            a["capability_type"] = "pci"
        if maybe(r, 0.04):
            a["vendor_id"] = "10DEX"
        if maybe(r, 0.03):
            a["bogus"] = "x"
        if maybe(r, 0.03):
            a["device_type"] = "type-VDPA"
        out.append(json.dumps(a) if maybe(r, 0.2) else a)
    if maybe(r, 0.03):
        out.append("{not json")
    return out


def extra_specs(r, vcpus, memory, alias_names):
    es = {}
    policy = r.choice([None, None, "dedicated", "dedicated", "mixed", "shared"])
    if maybe(r, 0.02):
        policy = "exclusive"
    if policy:
        es["hw:cpu_policy"] = policy
    pinned = policy in ("dedicated", "mixed")
    if maybe(r, 0.5 if pinned else 0.03):
        es["hw:cpu_thread_policy"] = r.choice(["prefer", "isolate", "require"])
    if policy == "mixed" or maybe(r, 0.05):
        if maybe(r, 0.92):
            k = r.randint(1, max(1, vcpus - 1))
            es["hw:cpu_dedicated_mask"] = r.choice(["^0", "^0-%d" % (vcpus - 1 - k) if vcpus - 1 - k >= 0 else "^0",
                                                    "%d-%d" % (vcpus - k, vcpus - 1)])
    if maybe(r, 0.15 if pinned else 0.02):
        es["hw:cpu_realtime"] = r.choice(["yes", "true", "no"])
        if maybe(r, 0.7):
            es["hw:cpu_realtime_mask"] = r.choice(["^0", "^0-1", "1-%d" % max(1, vcpus - 1), "0-%d" % (vcpus - 1)])
    if maybe(r, 0.2 if policy == "dedicated" else 0.03):
        es["hw:emulator_threads_policy"] = r.choice(["share", "isolate", "isolate", "bogus"] if maybe(r, 0.1)
                                                    else ["share", "isolate"])
    nodes = None
    if maybe(r, 0.35):
        nodes = r.choice([n for n in (1, 2, 2, 3, 4) if vcpus % n == 0 and memory % n == 0] or [1])
        if maybe(r, 0.05):
            nodes = 3
        es["hw:numa_nodes"] = str(nodes) if maybe(r, 0.97) else "0"
        if nodes > 1 and maybe(r, 0.3) and vcpus >= nodes:
            cpus = list(range(vcpus))
            r.shuffle(cpus)
            cut = sorted(r.sample(range(1, vcpus), nodes - 1)) if vcpus > nodes - 1 else []
            parts = [cpus[a:b] for a, b in zip([0] + cut, cut + [vcpus])]
            mem_left = memory
            for i, part in enumerate(parts):
                es["hw:numa_cpus.%d" % i] = ",".join(str(x) for x in sorted(part)) or "0"
                m = mem_left if i == len(parts) - 1 else (memory // nodes)
                es["hw:numa_mem.%d" % i] = str(m)
                mem_left -= m
            if maybe(r, 0.15):
                es.pop("hw:numa_mem.%d" % (len(parts) - 1))
    if maybe(r, 0.4):
        es["hw:mem_page_size"] = r.choice(["small", "large", "any", "2048", "1GB", "2MB", "4", "1048576", "large"]
                                          + (["huge", "3KB"] if maybe(r, 0.2) else []))
    if maybe(r, 0.08) and not policy:
        if maybe(r, 0.5):
            es["resources:PCPU"] = str(vcpus + (1 if es.get("hw:emulator_threads_policy") == "isolate" else 0))
            es.pop("hw:cpu_policy", None)
        else:
            es["resources:VCPU"] = str(vcpus)
    if maybe(r, 0.06 if pinned and "hw:cpu_thread_policy" not in es else 0.01):
        es["trait:HW_CPU_HYPERTHREADING"] = r.choice(["required", "forbidden"])
    if maybe(r, 0.2):
        es["hw:pci_numa_affinity_policy"] = r.choice(["legacy", "preferred", "required", "socket"]
                                                     + (["strict"] if maybe(r, 0.2) else []))
    if alias_names and maybe(r, 0.7):
        names = r.sample(alias_names, r.randint(1, min(2, len(alias_names))))
        es["pci_passthrough:alias"] = ",".join("%s:%d" % (n, r.randint(1, 3)) for n in names)
        if maybe(r, 0.04):
            es["pci_passthrough:alias"] = r.choice(["nosuch:1", "gpu", "gpu:x"])
    return es


def image_props(r, vcpus, es):
    p = {}
    if maybe(r, 0.1):
        p["hw_cpu_policy"] = es.get("hw:cpu_policy") or r.choice(["dedicated", "shared", "mixed"])
    if maybe(r, 0.1 if es.get("hw:cpu_policy") in ("dedicated", "mixed") else 0.02):
        p["hw_cpu_thread_policy"] = r.choice(["prefer", "isolate", "require"])
    if maybe(r, 0.06) and "hw:numa_nodes" not in es:
        p["hw_numa_nodes"] = r.choice([1, 2])
    if maybe(r, 0.06):
        p["hw_mem_page_size"] = r.choice(["small", "large", "2048", "any"])
    if maybe(r, 0.06):
        p["hw_pci_numa_affinity_policy"] = r.choice(["legacy", "preferred", "required", "socket"])
    if maybe(r, 0.03) and vcpus >= 2 and "hw:numa_nodes" not in es:
        p["hw_numa_nodes"] = 2
        half = vcpus // 2
        p["hw_numa_cpus.0"] = "0-%d" % (half - 1)
        p["hw_numa_cpus.1"] = "%d-%d" % (half, vcpus - 1)
    if maybe(r, 0.03):
        p["trait:HW_CPU_HYPERTHREADING"] = "required"
    return p


def scenario(seed, i):
    r = random.Random("%s-%d" % (seed, i))
    nhosts = r.randint(3, 8)
    hosts = []
    for h in range(nhosts):
        name = "cmp-%03d" % (h + 1)
        ncells = r.choice([1, 2, 2, 2, 3, 4])
        smt = maybe(r, 0.5)
        style = r.choice(["legacy", "legacy", "legacy", "split", "split", "dedicated", "shared"])
        host = {"name": name, "vcpus": 32, "memory_mb": 131072, "local_gb": 2000,
                "memory_mb_used": r.randint(0, 64) * 1024, "vcpus_used": r.randint(0, 16),
                "cpu_allocation_ratio": r.choice([1.0, 2.0, 4.0, 16.0]),
                "ram_allocation_ratio": r.choice([1.0, 1.0, 1.5])}
        if maybe(r, 0.88):
            host["numa_topology"] = {"cells": host_cells(r, ncells, smt, style)}
        pp = pools(r, ncells)
        if pp or maybe(r, 0.2):
            host["pci_device_pools"] = pp
        if maybe(r, 0.05):
            host["service"] = {"disabled": True}
        hosts.append(host)
    config = {"enabled_filters": [f for f in FILTER_POOL if maybe(r, 0.85)] or ["NUMATopologyFilter"],
              "weighers": r.sample(WEIGHERS, r.randint(1, 4)) if maybe(r, 0.8) else "all",
              "max_attempts": r.randint(1, 4)}
    if maybe(r, 0.2):
        config["enabled_filters"].insert(r.randint(0, len(config["enabled_filters"])), r.choice(EXTRA_FILTERS))
    r.shuffle(config["enabled_filters"]) if maybe(r, 0.3) else None
    if maybe(r, 0.5):
        config["pci_weight_multiplier"] = r.choice([0.0, 1.0, 2.0, 5.0])
    if maybe(r, 0.4):
        config["packing_host_numa_cells_allocation_strategy"] = maybe(r, 0.5)
    alias_list = aliases(r) if maybe(r, 0.75) else []
    if alias_list:
        config["pci_alias"] = alias_list
    names = []
    for a in alias_list:
        try:
            names.append((json.loads(a) if isinstance(a, str) else a)["name"])
        except Exception:
            pass
    vcpus = r.choice([1, 2, 2, 4, 4, 6, 8])
    memory = r.choice([512, 1024, 2048, 4096, 8192]) * (vcpus if maybe(r, 0.3) else 1)
    flavor = {"name": "numa.%d" % i, "vcpus": vcpus, "memory_mb": memory, "root_gb": 20,
              "extra_specs": extra_specs(r, vcpus, memory, sorted(set(names)))}
    request = {"flavor": flavor, "num_instances": r.choice([1, 1, 2, 2, 3, 4])}
    props = image_props(r, vcpus, flavor["extra_specs"])
    if props:
        request["image"] = {"properties": props}
    return {"config": config, "hosts": hosts, "request": request}


def main():
    seeded_main(__doc__.split("\n")[0], "numa-gen-", scenario)


if __name__ == "__main__":
    main()
