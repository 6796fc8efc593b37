#!/usr/bin/env python3
"""Random move scenarios (SCENARIO.md "Moves") for conformance.

usage: generate-moves.py [--conductor] --seed N --count K --out DIR [--prefix move-gen-] [--start I]
  writes DIR/<prefix>NNNN.scenario.json; scenario i depends only on (seed, i)
  --conductor: the moves Nova's conductor decides around the scheduler
  (conductor_scenario below), read from nova/conductor/tasks/live_migrate.py,
  nova/conductor/manager.py and nova/compute/api.py

Each scenario moves one existing instance: resize (new flavor, same flavor,
zero disk, volume-backed, allow_resize_to_same_host), migrate (target host,
the COMPUTE_SAME_HOST_COLD_MIGRATE trait on the source), live-migrate
(target host), evacuate (down or up source, target host) or unshelve (an
offloaded instance, target host, its cell), on the legacy path or Placement
(source usage, reserved and overcommitted sources so moving or doubling the
source allocation fails), with server groups the instance belongs to (every
policy, max_server_per_host), same_host/different_host hints, availability
zones, two cells, down and disabled hosts, and now and then NUMA topologies
and PCI devices a resize recomputes (hw:pci_numa_affinity_policy dropped).
Some scenarios are refused on purpose: errors Nova raises before scheduling
(ServiceUnavailable, CannotResizeToSameFlavor, CannotResizeDisk,
CannotMigrateToSameHost, ComputeHostNotFound, ComputeServiceUnavailable,
ComputeServiceInUse, HTTPBadRequest), ill-formed moves (ScenarioError) and
a few the reference does not model (forced moves, live-migrate among mixed
hypervisors or with PCI devices, unshelve with a target and an AZ).
Answer them with nova-batch.py (fuzzing) or make-fixtures.py (fixtures).
"""
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import seeded_main, vary_service  # noqa: E402

FILTERS = ["ComputeFilter", "AvailabilityZoneFilter", "ImagePropertiesFilter",
           "ServerGroupAntiAffinityFilter", "ServerGroupAffinityFilter",
           "DifferentHostFilter", "SameHostFilter", "NumInstancesFilter",
           "AggregateInstanceExtraSpecsFilter", "IoOpsFilter"]
WEIGHERS = ["RAMWeigher", "CPUWeigher", "DiskWeigher", "IoOpsWeigher",
            "ServerGroupSoftAffinityWeigher", "ServerGroupSoftAntiAffinityWeigher",
            "BuildFailureWeigher", "CrossCellWeigher"]
OPERATIONS = ["resize", "migrate", "live-migrate", "evacuate", "unshelve"]
PROJECTS = ["proj-a", "proj-b"]


def uuid(rng):
    return "%08x-%04x-4%03x-8%03x-%012x" % (
        rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
        rng.getrandbits(12), rng.getrandbits(48))


def flavor(rng, fid=None):
    fid = fid or "f%d" % rng.randint(1, 60)
    f = {"id": fid, "name": "flavor-" + fid,
         "vcpus": rng.choice([1, 2, 4, 8]),
         "memory_mb": rng.choice([1024, 2048, 4096, 8192, 16384]),
         "root_gb": rng.choice([0, 10, 20, 40])}
    if rng.random() < 0.2:
        f["ephemeral_gb"] = rng.choice([0, 10])
    if rng.random() < 0.15:
        f["swap"] = rng.choice([512, 1024])
    return f


def numa_cells(rng):
    cells = []
    for c in range(2):
        cpus = [c * 8 + i for i in range(8)]
        cell = {"id": c, "cpuset": cpus, "pcpuset": cpus,
                "memory": rng.choice([8192, 16384, 32768]),
                "cpu_usage": rng.randint(0, 4),
                "memory_usage": rng.choice([0, 2048, 4096])}
        if rng.random() < 0.4:
            cell["pinned_cpus"] = rng.sample(cpus, rng.randint(1, 6))
        cells.append(cell)
    return {"cells": cells}


def host(rng, i, numa, pci, same_hv):
    vcpus = rng.choice([8, 16, 32])
    mem = rng.choice([16384, 32768, 65536])
    disk = rng.choice([200, 500, 1000])
    h = {"name": "cmp-%03d" % i, "vcpus": vcpus,
         "vcpus_used": rng.randint(0, vcpus),
         "memory_mb": mem, "memory_mb_used": rng.choice([0, mem // 4, mem // 2, mem - 4096]),
         "local_gb": disk, "local_gb_used": rng.choice([0, disk // 2, disk - 30]),
         "num_instances": rng.randint(0, 8), "num_io_ops": rng.randint(0, 4),
         "supported_instances": [["x86_64", "kvm", "hvm"]],
         "instances": [uuid(rng) for _ in range(rng.randint(0, 2))]}
    if not same_hv:
        h["hypervisor_type"] = rng.choice(["QEMU", "QEMU", "VMware vCenter Server"])
        h["hypervisor_version"] = rng.choice([6002000, 7001000])
    if rng.random() < 0.15:
        h["supported_instances"] = [["aarch64", "kvm", "hvm"]]
    vary_service(rng, h, down_below=0.16, cell_chance=0.15)
    if rng.random() < 0.2:
        h["ram_allocation_ratio"] = rng.choice([1.0, 1.5])
    if rng.random() < 0.15:
        h["reserved_memory_mb"] = rng.choice([2048, 8192])
    if numa and rng.random() < 0.85:
        h["numa_topology"] = numa_cells(rng)
    if pci and rng.random() < 0.7:
        h["pci_device_pools"] = [
            {"vendor_id": "10de", "product_id": "20b5",
             "numa_node": rng.choice([0, 1, None]), "count": rng.randint(0, 2),
             "tags": {"dev_type": "type-PCI"}}]
    return h


def add_usage(h, f, bfv=False):
    """The source's usage includes the instance (SCENARIO.md "Moves")."""
    h["vcpus_used"] = h.get("vcpus_used", 0) + f["vcpus"]
    h["memory_mb_used"] = h.get("memory_mb_used", 0) + f["memory_mb"]
    disk = f.get("ephemeral_gb", 0) + (0 if bfv else f["root_gb"])
    disk += -(-f.get("swap", 0) // 1024)
    h["local_gb_used"] = h.get("local_gb_used", 0) + disk


def scenario(rng):
    op = rng.choice(OPERATIONS)
    placement = rng.random() < 0.45
    numa = rng.random() < 0.12
    pci = rng.random() < 0.12
    same_hv = rng.random() < 0.9
    n = rng.choice([3, 4, 6, 8, 12])
    hosts = [host(rng, i, numa, pci, same_hv) for i in range(n)]
    names = [h["name"] for h in hosts]
    cfg = {"enabled_filters": rng.sample(FILTERS, rng.randint(2, 6)),
           "weighers": rng.sample(WEIGHERS, rng.randint(1, 4)),
           "max_attempts": rng.choice([1, 2, 3, 4])}
    if numa:
        cfg["enabled_filters"].append("NUMATopologyFilter")
    if pci:
        cfg["enabled_filters"].append("PciPassthroughFilter")
        cfg["pci_alias"] = [{"name": "a100", "vendor_id": "10de", "product_id": "20b5",
                             "numa_policy": rng.choice(["legacy", "preferred", "required"])}]
    if placement:
        cfg["placement"] = True
        if rng.random() < 0.3:
            cfg["max_placement_results"] = rng.choice([1, 2, 3])
    if op == "resize" and rng.random() < 0.5:
        cfg["allow_resize_to_same_host"] = True
    if rng.random() < 0.3:
        cfg["soft_affinity_weight_multiplier"] = rng.choice([0.0, 2.0])
    aggs = []
    if rng.random() < 0.4:
        k = rng.randint(1, n - 1)
        shuffled = rng.sample(names, n)
        aggs.append({"name": "az1", "availability_zone": "az1", "hosts": shuffled[:k], "metadata": {}})
        if rng.random() < 0.5:
            aggs.append({"name": "az2", "availability_zone": "az2", "hosts": shuffled[k:], "metadata": {}})
    if rng.random() < 0.2:
        aggs.append({"name": "fast", "hosts": rng.sample(names, rng.randint(1, n)),
                     "metadata": {"ssd": "true"}})

    inst_uuid = uuid(rng)
    old = flavor(rng)
    bfv = rng.random() < 0.1
    specs = {}
    if numa and rng.random() < 0.7:
        specs["hw:numa_nodes"] = rng.choice(["1", "2"])
        if rng.random() < 0.4:
            specs["hw:cpu_policy"] = "dedicated"
    if pci and rng.random() < 0.6:
        specs["pci_passthrough:alias"] = "a100:1"
        if rng.random() < 0.6:
            specs["hw:pci_numa_affinity_policy"] = rng.choice(["required", "preferred", "legacy"])
    if rng.random() < 0.15:
        specs["aggregate_instance_extra_specs:ssd"] = "true"
    instance = {"uuid": inst_uuid, "flavor": dict(old)}
    if specs:
        instance["flavor"]["extra_specs"] = dict(specs)
    if rng.random() < 0.7:
        instance["image"] = {"id": uuid(rng), "properties": {"hw_architecture": rng.choice(["x86_64", "x86_64", "aarch64"])}}
    req = {"operation": op, "instance": instance, "project_id": rng.choice(PROJECTS)}
    if bfv:
        req["is_bfv"] = True

    src = None
    if op == "unshelve":
        if rng.random() < 0.3:
            instance["cell"] = rng.choice(["cell1", "cell2"])
    else:
        src = rng.choice(hosts)
        src["instances"] = src["instances"] + [inst_uuid]
        if not (placement and rng.random() < 0.05):  # now and then a usage without the instance
            add_usage(src, old, bfv)
        instance["host"] = src["name"]
        if rng.random() < 0.15:
            instance["node"] = src["name"]
        if op == "evacuate":
            src["service"] = {"up": False} if rng.random() < 0.85 else {"up": True}
        elif rng.random() < 0.08:
            src["service"] = {"up": False}
        if op == "migrate" and rng.random() < 0.25:
            src["traits"] = ["COMPUTE_SAME_HOST_COLD_MIGRATE"]
        if placement and rng.random() < 0.08:  # an overcommitted source: the move of its allocation fails
            src["ram_allocation_ratio"] = 1.0
            src["memory_mb_used"] = src["memory_mb"] + 2048

    if op == "resize":
        r = rng.random()
        if r < 0.08:
            new = dict(old)           # CannotResizeToSameFlavor
        else:
            new = flavor(rng, fid="n%d" % rng.randint(1, 60))
            if r < 0.16:
                new["root_gb"] = 0    # CannotResizeDisk unless volume-backed
        new_specs = dict(specs)
        if numa and rng.random() < 0.5:
            new_specs["hw:numa_nodes"] = rng.choice(["1", "2"])
        if pci and rng.random() < 0.5:
            new_specs["pci_passthrough:alias"] = "a100:%d" % rng.choice([1, 2])
            new_specs["hw:pci_numa_affinity_policy"] = rng.choice(["required", "preferred", "socket"])
        if new_specs:
            new["extra_specs"] = new_specs
        req["flavor"] = new
    elif rng.random() < 0.45:
        r = rng.random()
        if r < 0.1:
            req["target_host"] = "no-such-host"
        elif r < 0.2 and src is not None:
            req["target_host"] = src["name"]
        else:
            req["target_host"] = rng.choice(names)
    if op in ("live-migrate", "evacuate") and rng.random() < 0.06:
        req["force"] = True
    if rng.random() < 0.3 and aggs and aggs[0].get("availability_zone"):
        req["availability_zone"] = rng.choice(["az1", "az2"])

    # server groups: the instance's own (membership), others beside it
    others = [u for h in hosts for u in h["instances"] if u != inst_uuid]
    if rng.random() < 0.55:
        members = ([inst_uuid] if op != "unshelve" or rng.random() < 0.8 else []) + \
            rng.sample(others, min(len(others), rng.randint(0, 3)))
        g = {"uuid": uuid(rng), "name": "grp",
             "policy": rng.choice(["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"]),
             "members": members}
        if g["policy"] == "anti-affinity" and rng.random() < 0.3:
            g["rules"] = {"max_server_per_host": rng.choice([1, 2])}
        sgs = [g]
        if inst_uuid not in members:
            members.append(inst_uuid)
    else:
        sgs = []
    if rng.random() < 0.3 and others:
        key = rng.choice(["different_host", "same_host"])
        req["scheduler_hints"] = {key: rng.sample(others, min(len(others), rng.randint(1, 2)))}

    # ill-formed on purpose (ScenarioError)
    r = rng.random()
    if r < 0.02:
        req["server_group"] = "grp"
    elif r < 0.04:
        req["ignore_hosts"] = [names[0]]
    elif r < 0.05 and src is not None:
        other = rng.choice([h for h in hosts if h is not src])
        other["instances"] = other["instances"] + [inst_uuid]
    elif r < 0.06:
        req["num_instances"] = 2

    doc = {"config": cfg, "hosts": hosts, "request": req}
    if aggs:
        doc["aggregates"] = aggs
    if sgs:
        doc["server_groups"] = sgs
    return doc


HV_TYPES = ["QEMU", "QEMU", "QEMU", "VMware vCenter Server", "ironic"]
HV_VERSIONS = [5000000, 6002000, 6002000, 7001000, 8000000]


def conductor_scenario(rng):
    """A move whose answer Nova's conductor decides beside the scheduler,
    generated from what its code reads:
    - LiveMigrationTask._find_destination: the loop's
      _check_compatible_with_source_hypervisor compares the FIRST node of
      the source host and of the chosen host
      (get_first_node_by_host_for_old_compat): hosts with several nodes
      whose types and versions differ, the instance on a later node;
      _check_can_migrate_pci: flavor PCI aliases; _check_not_over_max_retries:
      [DEFAULT] migrate_max_retries from -1 to 3;
    - the forced path: _check_destination_is_not_source, _check_host_is_up
      (down, disabled targets), _check_destination_has_enough_memory
      (free_ram_mb, ram_allocation_ratio, the target's first node),
      claim_resources_on_destination (Placement, a full target), another
      cell's target;
    - rebuild_instance: forced evacuation to a down or disabled host, the
      doubled-up claim; unshelve_instance / API.unshelve: a target of
      another cell (ComputeHostNotFound), _ensure_host_in_az with the
      host's first aggregate zone or default_availability_zone;
    - migrate with a target: Destination(node=the target's first node).
    """
    op = rng.choice(["live-migrate"] * 6 + ["evacuate"] * 2 + ["unshelve"] * 2 + ["migrate"])
    placement = rng.random() < 0.45
    pci = rng.random() < 0.3
    numa = rng.random() < 0.08
    n = rng.randint(3, 8)
    hosts = []
    for i in range(n):
        nodes = 2 if rng.random() < 0.3 else 1
        for k in range(nodes):
            h = host(rng, i, numa, pci, True)
            if nodes > 1:
                h["node"] = "%s-%s" % (h["name"], "ab"[k])
                if k:
                    h["instances"] = []
            if rng.random() < 0.6:
                h["hypervisor_type"] = rng.choice(HV_TYPES)
                h["hypervisor_version"] = rng.choice(HV_VERSIONS)
            if k and "cell" in hosts[-1]:
                h["cell"] = hosts[-1]["cell"]
            elif k:
                h.pop("cell", None)
            if rng.random() < 0.1:
                h["free_ram_mb"] = rng.choice([0, 2048, 8192, h["memory_mb"] // 2])
            if rng.random() < 0.2:
                h["ram_allocation_ratio"] = rng.choice([0.5, 1.0, 1.5, 2.0])
            hosts.append(h)
    names = sorted({h["name"] for h in hosts})
    cfg = {"enabled_filters": rng.sample(FILTERS, rng.randint(1, 5)),
           "weighers": rng.sample(WEIGHERS, rng.randint(1, 3)),
           "max_attempts": rng.choice([1, 2, 3])}
    if rng.random() < 0.5:
        cfg["migrate_max_retries"] = rng.choice([-1, 0, 0, 1, 1, 2, 3])
    if numa:
        cfg["enabled_filters"].append("NUMATopologyFilter")
    if pci:
        cfg["enabled_filters"].append("PciPassthroughFilter")
        cfg["pci_alias"] = [{"name": "a100", "vendor_id": "10de", "product_id": "20b5",
                             "device_type": "type-PCI"}]
        if rng.random() < 0.5:
            cfg["weighers"].append("PCIWeigher")
    if placement:
        cfg["placement"] = True
    if rng.random() < 0.2:
        cfg["default_availability_zone"] = rng.choice(["nova", "az1"])
    aggs = []
    if rng.random() < 0.5:
        k = rng.randint(1, len(names))
        shuffled = rng.sample(names, len(names))
        aggs.append({"name": "az1", "availability_zone": "az1", "hosts": shuffled[:k], "metadata": {}})
        if rng.random() < 0.5 and k < len(names):
            aggs.append({"name": "az2", "availability_zone": "az2", "hosts": shuffled[k:], "metadata": {}})

    inst_uuid = uuid(rng)
    f = flavor(rng)
    specs = {}
    if pci and rng.random() < 0.6:
        specs["pci_passthrough:alias"] = "a100:1"
    if numa and rng.random() < 0.5:
        specs["hw:numa_nodes"] = "1"
    instance = {"uuid": inst_uuid, "flavor": dict(f)}
    if specs:
        instance["flavor"]["extra_specs"] = specs
    if rng.random() < 0.4:
        props = {"hw_architecture": "x86_64"}
        if rng.random() < 0.5:
            props["img_hv_type"] = rng.choice(["qemu", "kvm", "vmware"])
        instance["image"] = {"id": uuid(rng), "properties": props}
    req = {"operation": op, "instance": instance, "project_id": rng.choice(PROJECTS)}
    src = None
    if op == "unshelve":
        if rng.random() < 0.3:
            instance["cell"] = rng.choice(["cell1", "cell2"])
    else:
        src = rng.choice(hosts)
        src["instances"] = src["instances"] + [inst_uuid]
        add_usage(src, f)
        instance["host"] = src["name"]
        if src.get("node"):
            instance["node"] = src["node"]
        if op == "evacuate":
            src["service"] = {"up": False} if rng.random() < 0.9 else {"up": True}
        else:
            src["service"] = {"up": True} if rng.random() < 0.95 else {"up": False}
    if rng.random() < (0.7 if op != "live-migrate" else 0.45):
        r = rng.random()
        if r < 0.05:
            req["target_host"] = "no-such-host"
        elif r < 0.12 and src is not None:
            req["target_host"] = src["name"]
        else:
            req["target_host"] = rng.choice(names)
        if op in ("live-migrate", "evacuate") and rng.random() < 0.45:
            req["force"] = True
    if aggs and rng.random() < 0.5:
        req["availability_zone"] = rng.choice(["az1", "az2", "nova"])
    doc = {"config": cfg, "hosts": hosts, "request": req}
    if aggs:
        doc["aggregates"] = aggs
    return doc


def main():
    # the seed is an int for random.Random("%d-%d"), as the fixtures were made
    make = scenario
    if "--conductor" in sys.argv:
        sys.argv.remove("--conductor")
        make = conductor_scenario
    seeded_main(__doc__.split("\n")[0], "move-gen-",
                lambda seed, i: make(random.Random("%d-%d" % (int(seed), i))),
                sort_keys=True)


if __name__ == "__main__":
    main()
