#!/usr/bin/env python3
"""Random Placement scenarios (SCENARIO.md "Placement") for conformance.

usage: placement-gen.py [--no-numa] [--nested] OUT_DIR N [SEED]
  writes OUT_DIR/placement-gen-SEED-K.scenario.json for K in 0..N-1
  --no-numa  no hw:cpu_policy (a NUMA topology in the request makes the
             reference report the fitted cells, which the NUMA work checks)
  --nested   SCENARIO.md "Nested providers" and "Several nodes on one host"
             instead: child providers (vGPUs per GPU, SR-IOV NICs and PFs
             at any depth, parents named in any order, custom classes),
             unnumbered groups spread over trees, granular groups with
             traits, group_policy isolate / none / missing, Ironic service
             hosts of several nodes; files placement-nested-gen-SEED-K

Each scenario mixes what the Placement path decides on: reserved and
overcommitted inventories, PCPUs (hw:cpu_policy=dedicated and the VCPU
fallback query), custom resource classes with min_unit/max_unit/step_size,
traits (flavor, granular groups, image, forbidden), the AZ / tenant /
isolated-aggregate / image-metadata / image-type request filters,
max_placement_results cuts with and without server groups or hints,
multi-instance requests whose claims fail (reserved memory the host state
does not see), forced hosts and nodes, disabled and down computes.
Answer them with nova-batch.py (fuzzing) or make-fixtures.py (fixtures).
"""
import json
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import vary_service  # noqa: E402

# HW_CPU_HYPERTHREADING stays on hosts only: as a flavor trait without
# hw:cpu_policy=dedicated Nova's API refuses the flavor.
HOST_TRAITS = ["HW_CPU_X86_AVX2", "HW_CPU_X86_AVX512F", "HW_CPU_HYPERTHREADING",
               "HW_ARCH_X86_64", "COMPUTE_STORAGE_BUS_VIRTIO",
               "CUSTOM_GOLD", "CUSTOM_NVME", "CUSTOM_LICENSED"]
TRAITS = [t for t in HOST_TRAITS if t != "HW_CPU_HYPERTHREADING"]
PROJECTS = ["proj-a", "proj-b", "proj-c"]
FILTERS = ["ComputeFilter", "ImagePropertiesFilter", "AvailabilityZoneFilter",
           "AggregateMultiTenancyIsolation", "ServerGroupAntiAffinityFilter",
           "ServerGroupAffinityFilter", "SameHostFilter", "DifferentHostFilter",
           "NumInstancesFilter", "IoOpsFilter"]
WEIGHERS = ["RAMWeigher", "CPUWeigher", "DiskWeigher", "IoOpsWeigher"]


def uuid(rng):
    return "%08x-%04x-4%03x-8%03x-%012x" % (
        rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
        rng.getrandbits(12), rng.getrandbits(48))


def host(rng, i, n_hosts):
    vcpus = rng.choice([8, 16, 32, 64])
    mem = rng.choice([16384, 32768, 65536, 131072])
    disk = rng.choice([200, 500, 1000, 2000])
    h = {"name": "cmp-%03d" % i, "vcpus": vcpus,
         "vcpus_used": rng.randint(0, vcpus * 2),
         "memory_mb": mem, "memory_mb_used": rng.choice([0, 0, mem // 4, mem // 2, mem - 2048, mem + 4096]),
         "local_gb": disk, "local_gb_used": rng.choice([0, disk // 2, disk - 10]),
         "supported_instances": [[rng.choice(["x86_64", "x86_64", "aarch64"]), "kvm", "hvm"]],
         "num_instances": rng.randint(0, 6), "num_io_ops": rng.randint(0, 3),
         "instances": [uuid(rng) for _ in range(rng.randint(0, 2))]}
    if rng.random() < 0.3:
        h["cpu_allocation_ratio"] = rng.choice([1.0, 2.0, 16.0])
    if rng.random() < 0.2:
        h["ram_allocation_ratio"] = rng.choice([1.0, 1.5])
    if rng.random() < 0.3:
        h["reserved_memory_mb"] = rng.choice([2048, mem // 2, mem - 8192 if mem > 8192 else 0])
    if rng.random() < 0.2:
        h["reserved_vcpus"] = rng.choice([1, 4, vcpus])
    if rng.random() < 0.15:
        h["reserved_disk_gb"] = rng.choice([10, disk // 2])
    traits = []
    if rng.random() < 0.6:
        traits = rng.sample(HOST_TRAITS, rng.randint(1, 5))
    if rng.random() < 0.7:  # nova-compute reports the image types its driver supports
        traits += rng.sample(["COMPUTE_IMAGE_TYPE_QCOW2", "COMPUTE_IMAGE_TYPE_RAW",
                              "COMPUTE_IMAGE_TYPE_ISO"], rng.randint(1, 3))
    if traits:
        h["traits"] = traits
    if rng.random() < 0.25:
        pc = rng.choice([4, 8, 16])
        h["pcpus"] = pc
        h["pcpus_used"] = rng.randint(0, pc)
    inv = {}
    if rng.random() < 0.2:
        total = rng.choice([1, 2, 4])
        inv["VGPU"] = {"total": total, "max_unit": rng.choice([1, total]),
                       "used": rng.randint(0, total)}
    if rng.random() < 0.2:
        total = rng.choice([4, 8, 16])
        inv["CUSTOM_FPGA_SLOT"] = {"total": total,
                                   "step_size": rng.choice([1, 2]),
                                   "min_unit": rng.choice([1, 2]),
                                   "used": rng.randint(0, total),
                                   "reserved": rng.choice([0, 1])}
    if inv:
        h["inventories"] = inv
    vary_service(rng, h, down_below=0.12, cell_chance=0.1)
    return h


def aggregates(rng, names):
    aggs = []
    if rng.random() < 0.6:
        k = rng.randint(1, len(names) - 1)
        shuffled = rng.sample(names, len(names))
        aggs.append({"name": "az1", "availability_zone": "az1",
                     "hosts": shuffled[:k], "metadata": {}})
        if rng.random() < 0.6:
            aggs.append({"name": "az2", "availability_zone": "az2",
                         "hosts": shuffled[k:], "metadata": {}})
    for n in range(rng.randint(0, 3)):
        md = {}
        kind = rng.random()
        if kind < 0.4:
            key = rng.choice(["filter_tenant_id", "filter_tenant_id2",
                              "filter_tenant_id_x"])
            md[key] = rng.choice(PROJECTS + ["proj-a,proj-b", "proj-b"])
        elif kind < 0.75:
            md["trait:" + rng.choice(["CUSTOM_GOLD", "CUSTOM_LICENSED",
                                      "HW_CPU_X86_AVX2"])] = "required"
            if rng.random() < 0.2:
                md["TRAIT:CUSTOM_NVME"] = "required"
        else:
            md["ssd"] = "true"
        aggs.append({"name": "agg-%d" % n,
                     "hosts": rng.sample(names, rng.randint(1, max(1, len(names) // 2))),
                     "metadata": md})
    return aggs


def flavor(rng):
    f = {"name": "f-%d" % rng.randint(1, 99), "vcpus": rng.choice([1, 2, 4, 8, 12]),
         "memory_mb": rng.choice([1024, 2048, 4096, 8192, 16384]),
         "root_gb": rng.choice([0, 10, 20, 40, 80])}
    if rng.random() < 0.2:
        f["ephemeral_gb"] = rng.choice([0, 10])
    if rng.random() < 0.2:
        f["swap"] = rng.choice([512, 1024, 1536])
    es = {}
    if rng.random() < 0.25:
        es["trait:" + rng.choice(TRAITS)] = rng.choice(["required", "required", "forbidden"])
    if NUMA and rng.random() < 0.15:
        es["hw:cpu_policy"] = "dedicated"
        if rng.random() < 0.3:
            es["hw:cpu_thread_policy"] = rng.choice(["isolate", "require", "prefer"])
    if rng.random() < 0.04:  # a name os-traits does not know: Placement answers 400
        es["trait:HW_CPU_X86_BOGUS"] = "required"
    if rng.random() < 0.15:
        es["resources:VGPU"] = rng.choice(["1", "2"])
    if rng.random() < 0.15:
        es["resources:CUSTOM_FPGA_SLOT"] = rng.choice(["1", "2", "3", "4"])
    if rng.random() < 0.1:
        es["resources:" + rng.choice(["VCPU", "MEMORY_MB", "DISK_GB"])] = rng.choice(["0", "2", "abc", "-1"])
    if rng.random() < 0.12:
        es["resources1:VGPU"] = "1"
        if rng.random() < 0.5:
            es["trait1:CUSTOM_GOLD"] = "required"
        if rng.random() < 0.5:
            es["resources2:CUSTOM_FPGA_SLOT"] = "2"
        if rng.random() < 0.7:
            es["group_policy"] = rng.choice(["none", "isolate", "bogus"])
    if es:
        f["extra_specs"] = es
    return f


def scenario(rng, k):
    n = rng.choice([3, 5, 8, 12, 20])
    hosts = [host(rng, i, n) for i in range(n)]
    if rng.random() < 0.1:  # a host with two nodes (their own provider uuids)
        twin = dict(hosts[0], node="cmp-000-b", uuid=uuid(rng))
        hosts[0] = dict(hosts[0], node="cmp-000-a", uuid=uuid(rng))
        hosts.insert(1, twin)
    names = sorted({h["name"] for h in hosts})
    aggs = aggregates(rng, names)
    cfg = {"placement": True,
           "enabled_filters": rng.sample(FILTERS, rng.randint(1, 5)),
           "weighers": rng.sample(WEIGHERS, rng.randint(1, 3)),
           "max_attempts": rng.choice([1, 2, 3, 4])}
    if rng.random() < 0.5:
        cfg["max_placement_results"] = rng.choice([1, 2, 3, 5])
    for opt, p in (("limit_tenants_to_placement_aggregate", 0.4),
                   ("placement_aggregate_required_for_tenants", 0.2),
                   ("query_placement_for_image_type_support", 0.2),
                   ("enable_isolated_aggregate_filtering", 0.35),
                   ("image_metadata_prefilter", 0.3),
                   ("disable_fallback_pcpu_query", 0.15)):
        if rng.random() < p:
            cfg[opt] = True
    if rng.random() < 0.1:
        cfg["query_placement_for_availability_zone"] = False
    req = {"flavor": flavor(rng), "project_id": rng.choice(PROJECTS),
           "num_instances": rng.choice([1, 1, 2, 3, 4])}
    img = {}
    if rng.random() < 0.4:
        img["disk_format"] = rng.choice(["qcow2", "qcow2", "raw", "iso", "vhd"])
    props = {}
    if rng.random() < 0.3:
        props["hw_architecture"] = rng.choice(["x86_64", "aarch64"])
    if rng.random() < 0.15:
        props["hw_disk_bus"] = rng.choice(["virtio", "virtio", "scsi"])
    if rng.random() < 0.2:
        props["trait:" + rng.choice(["CUSTOM_LICENSED", "CUSTOM_GOLD"])] = "required"
    if props:
        img["properties"] = props
    if img:
        req["image"] = img
    if rng.random() < 0.3:
        req["availability_zone"] = rng.choice(["az1", "az2", "nova"])
    all_instances = [u for h in hosts for u in h.get("instances", [])]
    groups = []
    r = rng.random()
    if r < 0.15 and all_instances:
        g = {"uuid": uuid(rng), "name": "grp",
             "policy": rng.choice(["anti-affinity", "affinity",
                                   "soft-affinity", "soft-anti-affinity"]),
             "members": rng.sample(all_instances, 1)}
        groups.append(g)
        req["server_group"] = g["uuid"]
    elif r < 0.3 and all_instances:
        req["scheduler_hints"] = {rng.choice(["same_host", "different_host"]):
                                  rng.sample(all_instances, 1)}
    r = rng.random()
    if r < 0.06:
        req["force_hosts"] = [rng.choice(names + ["nope"])]
    elif r < 0.09:
        req["force_nodes"] = [rng.choice([h.get("node", h["name"]) for h in hosts])]
    elif r < 0.12:
        req["ignore_hosts"] = rng.sample(names, 1)
    if rng.random() < 0.1:
        req["is_bfv"] = True
    s = {"config": cfg, "hosts": hosts, "aggregates": aggs, "request": req}
    if groups:
        s["server_groups"] = groups
    return s


# --------------------------------------------------------------------------
# --nested: provider trees and several nodes per service host
# --------------------------------------------------------------------------

CHILD_TRAITS = ["CUSTOM_NVIDIA_A40", "CUSTOM_NVIDIA_A100", "CUSTOM_PHYSNET_DATA",
                "CUSTOM_PHYSNET_MGMT", "HW_NIC_OFFLOAD_GENEVE", "CUSTOM_FAST"]
BAREMETAL = ["CUSTOM_BAREMETAL_GOLD", "CUSTOM_BAREMETAL_SILVER"]


def inventory(rng, total):
    rec = {"total": total}
    if rng.random() < 0.2:
        rec["max_unit"] = rng.choice([1, max(1, total // 2), total])
    if rng.random() < 0.1:
        rec["reserved"] = rng.choice([0, 1])
    if rng.random() < 0.1:
        rec["step_size"] = rng.choice([1, 2])
    if rng.random() < 0.1:
        rec["allocation_ratio"] = rng.choice([1.0, 1.5, 2.0])
    return rec


def children(rng, name, theme):
    """A compute node's provider tree as a virt driver leaves it."""
    out = []
    kind = rng.random()
    if rng.random() < 0.8:  # mostly what the scenario's flavor asks for
        kind = {"vgpu": 0.1, "sriov": 0.5, "numa": 0.9}[theme]
    if kind < 0.4:  # libvirt vGPUs: one provider per physical GPU
        for g in range(rng.randint(1, 3)):
            total = rng.choice([2, 4, 8, 16])
            c = {"name": "%s_pci_0000_%02x_00_0" % (name, 0x81 + g), "parent": None,
                 "inventories": {"VGPU": inventory(rng, total)},
                 "usages": {"VGPU": rng.choice([0, 0, 1, total // 2, total])},
                 "traits": [rng.choice(["CUSTOM_NVIDIA_A100", "CUSTOM_NVIDIA_A100", "CUSTOM_NVIDIA_A40"])]}
            out.append(c)
    elif kind < 0.75:  # SR-IOV: a NIC (or not) with PFs, sometimes a level deeper
        nic = "%s_nic_0" % name
        nested = rng.random() < 0.6
        if nested:
            out.append({"name": nic, "parent": None, "inventories": {}, "traits": [], "usages": {}})
        for pf in range(rng.randint(1, 3)):
            inv = {"SRIOV_NET_VF": inventory(rng, rng.choice([4, 8]))}
            usages = {"SRIOV_NET_VF": rng.choice([0, 0, 2, 8])}
            if rng.random() < 0.4:
                inv["NET_BW_EGR_KILOBIT_PER_SEC"] = inventory(rng, rng.choice([10000, 25000]))
                usages["NET_BW_EGR_KILOBIT_PER_SEC"] = rng.choice([0, 5000, 20000])
            c = {"name": "%s_pf_%d" % (nic if nested else name, pf),
                 "parent": nic if nested else None, "inventories": inv, "usages": usages,
                 "traits": ((["CUSTOM_PHYSNET_DATA"] if rng.random() < 0.75 else ["CUSTOM_PHYSNET_MGMT"]) +
                            (["HW_NIC_OFFLOAD_GENEVE"] if rng.random() < 0.3 else []))}
            out.append(c)
            if nested and rng.random() < 0.2:  # a third level
                out.append({"name": c["name"] + "_vf_pool", "parent": c["name"],
                            "inventories": {"CUSTOM_FAST": inventory(rng, 4)},
                            "usages": {}, "traits": ["CUSTOM_FAST"]})
    else:  # NUMA-node-like children holding standard classes, or an FPGA card
        for n in range(rng.randint(1, 2)):
            inv = {}
            if rng.random() < 0.5:
                inv["PCPU"] = inventory(rng, rng.choice([4, 8]))
            if rng.random() < 0.5:
                inv["CUSTOM_FPGA_SLOT"] = inventory(rng, rng.choice([2, 4]))
            if not inv:
                inv["VGPU"] = inventory(rng, 4)
            out.append({"name": "%s_numa_%d" % (name, n), "parent": None, "inventories": inv,
                        "usages": {rc: rng.choice([0, 1]) for rc in inv},
                        "traits": rng.sample(CHILD_TRAITS, rng.randint(0, 1))})
    for c in out:
        if rng.random() < 0.15:
            c["uuid"] = uuid(rng)
        if not c["traits"] and rng.random() < 0.5:
            del c["traits"]
        if not c.get("usages") and rng.random() < 0.5:
            c.pop("usages", None)
    if rng.random() < 0.5:  # children listed before their parents
        rng.shuffle(out)
    return out


def ironic_host(rng, i, nodes):
    """A nova-compute service host of the ironic driver and its nodes."""
    out = []
    for n in range(nodes):
        rc = rng.choice(BAREMETAL)
        deployed = rng.random() < 0.35
        h = {"name": "ironic-%d" % i, "node": "bm-%d%d" % (i, n), "vcpus": 0, "memory_mb": 0,
             "local_gb": 0, "hypervisor_type": "ironic", "hypervisor_version": 1,
             "num_instances": 1 if deployed else 0,
             "supported_instances": [["x86_64", "baremetal", "hvm"]],
             "inventories": {rc: {"total": 1, "reserved": 1 if deployed else 0,
                                  "used": 1 if deployed else 0}}}
        if rng.random() < 0.2:
            h["uuid"] = uuid(rng)
        if rng.random() < 0.3:
            h["traits"] = rng.sample(["CUSTOM_GOLD", "CUSTOM_RAID"], 1)
        if rng.random() < 0.05:
            h["service"] = {"disabled": True}
        out.append(h)
    return out


def nested_flavor(rng, ironic, theme):
    if ironic and rng.random() < 0.6:
        f = {"name": "bm.x", "vcpus": 32, "memory_mb": 262144, "root_gb": 480,
             "extra_specs": {"resources:" + rng.choice(BAREMETAL): "1",
                             "resources:VCPU": "0", "resources:MEMORY_MB": "0",
                             "resources:DISK_GB": "0"}}
        if rng.random() < 0.3:
            f["extra_specs"]["trait:CUSTOM_GOLD"] = rng.choice(["required", "forbidden"])
        if rng.random() < 0.3:
            f["extra_specs"]["aggregate_instance_extra_specs:baremetal"] = "true"
        return f
    f = {"name": "f-%d" % rng.randint(1, 99), "vcpus": rng.choice([1, 2, 4, 8]),
         "memory_mb": rng.choice([1024, 4096, 8192, 16384]),
         "root_gb": rng.choice([0, 20, 40])}
    es = {}
    rcs, traits = {"vgpu": (["VGPU"], ["CUSTOM_NVIDIA_A40", "CUSTOM_NVIDIA_A100"]),
                   "sriov": (["SRIOV_NET_VF"], ["CUSTOM_PHYSNET_DATA", "CUSTOM_PHYSNET_MGMT",
                                                "HW_NIC_OFFLOAD_GENEVE"]),
                   "numa": (["PCPU", "CUSTOM_FPGA_SLOT", "VGPU"], CHILD_TRAITS)}[theme]
    if rng.random() < 0.1:
        rcs, traits = ["VGPU", "SRIOV_NET_VF", "CUSTOM_FPGA_SLOT", "VCPU"], CHILD_TRAITS
    if rng.random() < 0.5:
        rc = rng.choice(rcs)
        if rc == "PCPU":
            es["resources:PCPU"] = str(f["vcpus"])
        else:
            es["resources:" + rc] = rng.choice(["1", "1", "2", "4"])
    if rng.random() < 0.25:
        es["trait:" + rng.choice(traits)] = rng.choice(["required", "required", "forbidden"])
    groups = rng.choice([0, 1, 1, 2, 2, 3])
    for g in range(1, groups + 1):
        rc = rcs[0] if rng.random() < 0.7 else rng.choice(rcs + (["NET_BW_EGR_KILOBIT_PER_SEC"] if theme == "sriov" else []))
        if rc == "PCPU":
            rc = "CUSTOM_FPGA_SLOT"
        es["resources%d:%s" % (g, rc)] = rng.choice(["1000", "10000"] if rc.startswith("NET_BW") else ["1", "1", "2"])
        if rc == "SRIOV_NET_VF" and rng.random() < 0.4:
            es["resources%d:NET_BW_EGR_KILOBIT_PER_SEC" % g] = rng.choice(["1000", "10000"])
        if rng.random() < 0.5:
            t = traits[0] if rng.random() < 0.7 else rng.choice(traits)
            es["trait%d:%s" % (g, t)] = rng.choice(["required"] * 5 + ["forbidden"])
    if groups and rng.random() < 0.85:
        es["group_policy"] = rng.choice(["isolate", "isolate", "none"])
    if es:
        f["extra_specs"] = es
    return f


def nested_scenario(rng):
    n = rng.choice([2, 3, 4, 6, 8])
    hosts = []
    ironic = rng.random() < 0.25
    theme = rng.choice(["vgpu", "sriov", "sriov", "numa"])
    for i in range(n):
        if ironic and rng.random() < 0.5:
            hosts += ironic_host(rng, i, rng.randint(1, 4))
            continue
        h = host(rng, i, n)
        h.pop("inventories", None)
        # roomier than the plain generator's: the trees are what is under test
        h["memory_mb_used"] = rng.choice([0, h["memory_mb"] // 4, h["memory_mb"] // 2])
        h["vcpus_used"] = rng.randint(0, h["vcpus"])
        if rng.random() < 0.7:
            h.pop("reserved_memory_mb", None)
        if rng.random() < 0.85:
            h["child_providers"] = children(rng, h["name"], theme)
        hosts.append(h)
    if not ironic and rng.random() < 0.15:  # a libvirt host of two nodes
        twin = dict(hosts[0], node=hosts[0]["name"] + "-b")
        twin.pop("child_providers", None)
        twin.pop("uuid", None)
        hosts.insert(1, twin)
    names = sorted({h["name"] for h in hosts})
    aggs = aggregates(rng, names) if len(names) > 1 else []
    if ironic and rng.random() < 0.5:
        aggs.append({"name": "baremetal", "hosts": [x for x in names if x.startswith("ironic")],
                     "metadata": {"baremetal": "true"}})
    placement = rng.random() < 0.85
    cfg = {"placement": placement,
           "enabled_filters": rng.sample(FILTERS[:4] + ["AggregateInstanceExtraSpecsFilter",
                                                        "NumInstancesFilter", "IoOpsFilter"],
                                         rng.randint(1, 4)),
           "weighers": rng.sample(WEIGHERS, rng.randint(1, 3)),
           "max_attempts": rng.choice([1, 2, 3, 4])}
    if rng.random() < 0.3:
        cfg["max_placement_results"] = rng.choice([1, 2, 3, 5])
    if rng.random() < 0.2:
        cfg["enable_isolated_aggregate_filtering"] = True
    if rng.random() < 0.2:
        cfg["limit_tenants_to_placement_aggregate"] = True
    if rng.random() < 0.06:
        cfg["host_subset_size"] = 2
    num = rng.choice([1, 1, 1, 2, 3, 4])
    req = {"flavor": nested_flavor(rng, ironic, theme), "project_id": rng.choice(PROJECTS),
           "num_instances": num}
    if rng.random() < 0.2:
        req["availability_zone"] = rng.choice(["az1", "az2"])
    all_instances = [u for h in hosts for u in h.get("instances", [])]
    groups = []
    # One instance only: the request's own instances in a group are another piece of work.
    if num == 1 and all_instances and rng.random() < 0.15:
        g = {"uuid": uuid(rng), "name": "grp",
             "policy": rng.choice(["anti-affinity", "affinity", "soft-anti-affinity"]),
             "members": rng.sample(all_instances, 1)}
        groups.append(g)
        req["server_group"] = g["uuid"]
    elif all_instances and rng.random() < 0.15:
        req["scheduler_hints"] = {"different_host": rng.sample(all_instances, 1)}
    r = rng.random()
    if r < 0.08:
        req["force_hosts"] = [rng.choice(names)]
    elif r < 0.14:
        req["force_nodes"] = [rng.choice([h.get("node", h["name"]) for h in hosts])]
    elif r < 0.18:
        req["ignore_hosts"] = rng.sample(names, 1)
    s = {"config": cfg, "hosts": hosts, "aggregates": aggs, "request": req}
    if groups:
        s["server_groups"] = groups
    return s


NUMA = True


def main():
    global NUMA
    args = sys.argv[1:]
    nested = False
    while args and args[0].startswith("--"):
        if args[0] == "--no-numa":
            NUMA = False
        elif args[0] == "--nested":
            nested = True
        args = args[1:]
    out, n = args[0], int(args[1])
    seed = int(args[2]) if len(args) > 2 else 1
    os.makedirs(out, exist_ok=True)
    prefix = "placement-nested-gen" if nested else "placement-gen"
    for k in range(n):
        rng = random.Random("%d-%d" % (seed, k))
        path = os.path.join(out, "%s-%d-%03d.scenario.json" % (prefix, seed, k))
        doc = nested_scenario(rng) if nested else scenario(rng, k)
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")


if __name__ == "__main__":
    main()
