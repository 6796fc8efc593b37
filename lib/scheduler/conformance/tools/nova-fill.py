#!/usr/bin/python3
"""Capacity by filling, answered by Nova: the reference loop the capacity CLI must agree with.

usage: /usr/bin/python3 nova-fill.py [--limit N] [--out DIR] SCENARIO.json...

For each scenario: boot its flavor as a single-instance request through
nova_reference.py (imported once, nova.conf overrides reset per boot), keep
the boot on the chosen host by editing the scenario as the cloud would look
once the instance runs (vcpus_used, memory_mb_used, local_gb_used,
free_ram_mb / free_disk_gb / disk_available_least when given, num_instances,
the host's instances, the server group's members; not num_io_ops; its
NUMA cells as Nova's numa_usage_from_instance_numa leaves them with the
cells the boot was fitted to, its PCI pools less the devices taken; on the
Placement path what the claim allocated beyond VCPU, MEMORY_MB and DISK_GB:
PCPU, the host's own `inventories`, child providers' usages), and repeat
until Nova answers NoValidHost (or raises) or N boots were made.

Prints one JSON line per scenario: {"flavor", "count", "per_host",
"stopped_by"} (stopped_by: Nova's result for the failing boot, without
timing; null when the limit was reached). With --out DIR, also writes
DIR/<name>.fill.json (the fixture the vitest agreement test reads).
"""
import copy
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import answer, load_reference  # noqa: E402


def keep_numa_pci(ref, scenario, host, selection):
    """The host's NUMA cells and PCI pools once the boot runs."""
    numa = selection.get("numa")
    if numa and host.get("numa_topology"):
        from nova import objects
        from nova.virt import hardware
        topo = objects.NUMATopology.obj_from_db_obj(
            ref.build_numa_topology(host["numa_topology"]))
        asked = ref.build_request(scenario, []).numa_topology.cells
        cells = []
        for i, c in enumerate(numa):
            g = asked[min(i, len(asked) - 1)]
            cells.append(objects.InstanceNUMACell(
                id=c["host_cell"], cpuset=set(c["cpuset"]),
                pcpuset=set(c["pcpuset"]), memory=c["memory"],
                pagesize=c["pagesize"],
                cpu_pinning={int(k): v for k, v in c["cpu_pinning"].items()},
                cpuset_reserved=(set(c["cpuset_reserved"])
                                 if c["cpuset_reserved"] else None),
                cpu_policy=g.cpu_policy, cpu_thread_policy=g.cpu_thread_policy))
        new = hardware.numa_usage_from_instance_numa(
            topo, objects.InstanceNUMATopology(cells=cells))
        host["numa_topology"] = {"cells": [{
            "id": c.id, "cpuset": sorted(c.cpuset), "pcpuset": sorted(c.pcpuset),
            "memory": c.memory, "cpu_usage": c.cpu_usage,
            "memory_usage": c.memory_usage,
            "pinned_cpus": sorted(c.pinned_cpus),
            "siblings": [sorted(s) for s in c.siblings],
            "mempages": [{"size_kb": m.size_kb, "total": m.total,
                          "used": m.used, "reserved": m.reserved}
                         for m in c.mempages],
            "socket": c.socket} for c in new.cells]}
    for taken in selection.get("pci") or []:
        count = taken["count"]
        for pool in host.get("pci_device_pools") or []:
            if (count and pool["count"] and
                    str(pool["vendor_id"]) == taken["vendor_id"] and
                    str(pool["product_id"]) == taken["product_id"] and
                    pool.get("numa_node") == taken["numa_node"] and
                    (pool.get("tags") or {}).get("dev_type") == taken["dev_type"]):
                n = min(count, pool["count"])
                pool["count"] -= n
                count -= n
    if host.get("pci_device_pools"):
        host["pci_device_pools"] = [p for p in host["pci_device_pools"]
                                    if p["count"] > 0]


def keep_allocations(host, allocations):
    """Placement's allocation beyond VCPU, MEMORY_MB and DISK_GB, as usage."""
    node = host.get("node", host["name"])
    children = {c["name"]: c for c in host.get("child_providers") or []}
    for name, amounts in allocations.items():
        for rc, n in amounts.items():
            if name in children:
                c = children[name]
                usages = c.setdefault("usages", {})
                used = (c.get("inventories") or {}).get(rc, {}).get("used", 0)
                usages[rc] = usages.get(rc, used) + n
            elif name != node:
                continue
            elif rc in (host.get("inventories") or {}):
                inv = host["inventories"][rc]
                inv["used"] = inv.get("used", 0) + n
            elif rc == "PCPU":
                host["pcpus_used"] = host.get("pcpus_used", 0) + n


def finish_boot(ref, scenario, host_name, n, doc=None):
    """The scenario as it is once boot n runs on host_name."""
    flavor = scenario["request"]["flavor"]
    disk = flavor.get("root_gb", 0) + flavor.get("ephemeral_gb", 0)
    uuid = ref.stable_uuid("capacity-%d" % n)
    host = next(h for h in scenario["hosts"] if h["name"] == host_name)
    host["vcpus_used"] = host.get("vcpus_used", 0) + flavor["vcpus"]
    host["memory_mb_used"] = host.get("memory_mb_used", 0) + flavor["memory_mb"]
    host["local_gb_used"] = host.get("local_gb_used", 0) + disk
    if "free_ram_mb" in host:
        host["free_ram_mb"] -= flavor["memory_mb"]
    if "free_disk_gb" in host:
        host["free_disk_gb"] -= disk
    if host.get("disk_available_least") is not None:
        host["disk_available_least"] -= disk
    host["num_instances"] = host.get("num_instances", 0) + 1
    host["instances"] = list(host.get("instances", [])) + [uuid]
    if doc is not None:
        keep_numa_pci(ref, scenario, host, doc["selections"][0])
        claims = (doc.get("placement") or {}).get("claims") or []
        if claims and claims[-1].get("allocations"):
            keep_allocations(host, claims[-1]["allocations"])
    ref_group = scenario["request"].get("server_group")
    if ref_group:
        for g in scenario.get("server_groups", []):
            if g.get("uuid") == ref_group or g.get("name") == ref_group:
                g["members"] = list(g.get("members", [])) + [uuid]
                break


def fill(ref, scenario, limit):
    scenario = copy.deepcopy(scenario)
    scenario["request"]["num_instances"] = 1
    names = [h["name"] for h in scenario["hosts"]]
    if len(set(names)) != len(names):
        raise SystemExit("nova-fill: hosts with the same name: a selection would not say which node")
    per_host = {}
    count = 0
    stopped_by = None
    while count < limit:
        doc = answer(ref, scenario=scenario)
        if doc.get("error"):
            stopped_by = doc
            break
        chosen = doc["selections"][0]["host"]
        finish_boot(ref, scenario, chosen, count, doc)
        per_host[chosen] = per_host.get(chosen, 0) + 1
        count += 1
    order = {n: i for i, n in enumerate(names)}
    per_host = dict(sorted(per_host.items(), key=lambda kv: order[kv[0]]))
    return {"flavor": scenario["request"]["flavor"]["name"], "count": count,
            "per_host": per_host, "stopped_by": stopped_by}


def main():
    args = sys.argv[1:]
    limit = 1000000
    out_dir = None
    files = []
    i = 0
    while i < len(args):
        if args[i] == "--limit":
            limit = int(args[i + 1])
            i += 2
        elif args[i] == "--out":
            out_dir = args[i + 1]
            i += 2
        else:
            files.append(args[i])
            i += 1
    ref = load_reference()
    for path in files:
        with open(path) as f:
            scenario = json.load(f)
        result = fill(ref, scenario, limit)
        result["limit"] = limit
        print(json.dumps(result, sort_keys=True), flush=True)
        if out_dir:
            name = os.path.basename(path)[:-len(".scenario.json")]
            with open(os.path.join(out_dir, name + ".fill.json"), "w") as f:
                json.dump(result, f, indent=1, sort_keys=True)
                f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
