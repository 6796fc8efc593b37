#!/usr/bin/env python3
"""Seeded random scheduling-scenario generator (stdlib only).

Writes scenario files in the format of ../shared/nova-reference/SCENARIO.md.
"Normal" scenarios mimic the random examples s0000..s0009 of the shared
reference (the style of the hidden conformance set); "hard" scenarios start
from a normal one and apply a few edge-case mutations (unparsable aggregate
multipliers, odd extra-spec operators, JsonFilter corner cases, ties, tiny
clouds, exhausted capacity, forced/ignored hosts, bad metrics settings ...).

usage: generate.py --seed N --count K --out DIR [--hard-ratio 0.3]
                   [--prefix c] [--start 0] [--only-hard | --only-normal]

Files: DIR/<prefix>NNNN.scenario.json (normal) and DIR/<prefix>NNNNh.scenario.json
(hard). Scenario i depends only on (seed, i), so a single scenario can be
regenerated with --start i --count 1.
"""
import argparse
import json
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import EXTRA_FILTERS, FILTERS, WEIGHERS, write_if_changed  # noqa: E402

FLAVOR_NAMES = ["m1.small", "m1.large", "c1.tiny", "gpu.xl"]
PROJECTS = ["proj-a", "proj-b", "proj-c"]
FEATURES = ["fpu", "mmx", "aes", "avx", "avx2", "avx512f", "sse4.2", "vmx"]
SUPPORTED = [["x86_64", "qemu", "hvm"], ["i686", "qemu", "hvm"],
             ["x86_64", "xen", "xen"], ["aarch64", "kvm", "hvm"],
             ["x86_64", "kvm", "hvm"]]
HV_TYPES = [("QEMU", 57), ("VMware vCenter Server", 22), ("ironic", 21)]
HV_VERSIONS = [4002000, 6002000, 7001000, 8000000]
MEMORY = [16384, 32768, 65536, 98304, 131072, 196608, 262144, 393216,
          524288, 786432, 1048576]
MEMORY_W = [6, 10, 15, 4, 15, 11, 15, 7, 11, 5, 4]
METRICS = ["cpu.percent", "cpu.iowait.percent", "cpu.frequency"]
ALL_METRICS = ["cpu.frequency", "cpu.user.time", "cpu.kernel.time",
               "cpu.idle.time", "cpu.iowait.time", "cpu.user.percent",
               "cpu.kernel.percent", "cpu.idle.percent",
               "cpu.iowait.percent", "cpu.percent"]
METRIC_SETTINGS = ["cpu.percent=-1.0", "cpu.frequency=2.0",
                   "cpu.percent=1.0, cpu.iowait.percent=-0.5",
                   "cpu.iowait.percent=1.0", "cpu.percent=-1.0, cpu.frequency=0.5"]
MULT_VALUES = [-3.0, -2.0, -1.0, 0.0, 0.5, 1.0, 2.0, 3.0, 1000000.0]
NONNEG_MULT = [0.0, 0.5, 1.0, 2.0, 3.0]
AGG_MULT_VALUES = ["-2.0", "-1.0", "0.5", "1.0", "2.0", "3.0"]

QUERIES_NORMAL = [
    ["in", "$host", "cmp-000", "cmp-031"],
    ["not", ["=", "$host", "cmp-000"]],
    [">=", "$free_ram_mb", 1024],
    [">=", "$free_ram_mb", 65536],
    [">=", "$free_disk_mb", 204800],
    ["<", "$num_instances", 30],
    ["=", "$hypervisor_type", "QEMU"],
    ["and", [">=", "$free_ram_mb", 16384], [">=", "$vcpus_total", 32]],
    ["or", ["=", "$hypervisor_type", "ironic"], ["<=", "$num_io_ops", 3]],
    [">", "$vcpus_total", 16],
]


def jdump(obj):
    return json.dumps(obj)


class Gen(object):
    def __init__(self, rng):
        self.r = rng

    # ------------------------------------------------------------ helpers
    def uuid(self):
        b = self.r.getrandbits(128)
        h = "%032x" % b
        # make it look like a v4 uuid
        h = h[:12] + "4" + h[13:16] + "89ab"[int(h[16], 16) % 4] + h[17:]
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    def chance(self, p):
        return self.r.random() < p

    def wchoice(self, items, weights):
        return self.r.choices(items, weights=weights, k=1)[0]

    # -------------------------------------------------------------- hosts
    def host(self, i, p_cell2, n_subnets):
        r = self.r
        vcpus = r.choice([8, 16, 32, 48, 64, 96, 128])
        memory = self.wchoice(MEMORY, MEMORY_W)
        local_gb = r.choice([200, 500, 1000, 2000, 4000])
        h = {
            "name": "cmp-%03d" % i,
            "cell": "cell2" if r.random() < p_cell2 else "cell1",
            "vcpus": vcpus,
            "vcpus_used": r.randint(0, 2 * vcpus),
            "memory_mb": memory,
            "memory_mb_used": int(memory * r.uniform(0.01, 1.0)),
            "local_gb": local_gb,
            "local_gb_used": r.randint(1, local_gb),
            "hypervisor_type": self.wchoice([t for t, _ in HV_TYPES],
                                            [w for _, w in HV_TYPES]),
            "hypervisor_version": r.choice(HV_VERSIONS),
            "host_ip": "10.0.%d.%d" % (r.randrange(n_subnets),
                                       r.randint(1, 254)),
            "supported_instances": [list(s) for s in
                                    r.sample(SUPPORTED, r.randint(0, 2))],
            "cpu_info": {"arch": "x86_64",
                         "features": r.sample(FEATURES, r.randint(0, 8)),
                         "vendor": r.choice(["Intel", "AMD"])},
            "num_instances": r.randint(0, 60),
            "num_io_ops": r.randint(0, 10),
            "failed_builds": self.wchoice([0, 1, 3], [64, 13, 23]),
            "cpu_allocation_ratio": r.choice([1.0, 4.0, 16.0]),
            "ram_allocation_ratio": r.choice([1.0, 1.5]),
            "disk_allocation_ratio": 1.0,
            "service": {"disabled": r.random() < 0.13,
                        "up": r.random() >= 0.05},
            "instances": [self.uuid() for _ in range(r.randint(0, 4))],
        }
        if r.random() < 0.55:
            names = r.sample(METRICS, r.randint(1, 3))
            h["metrics"] = [{"name": n, "value": round(r.uniform(0.4, 99), 2)}
                            for n in names]
        return h

    # --------------------------------------------------------- aggregates
    def agg_metadata(self):
        r = self.r
        pool = {
            "ssd": lambda: "true",
            "gpu": lambda: r.choice(["true", "false"]),
            "filter_tenant_id": lambda: r.choice(
                ["proj-a", "proj-b", "proj-c", "proj-b,proj-c",
                 "proj-c,proj-b", "proj-a,proj-c"]),
            "instance_type": lambda: ",".join(
                r.sample(FLAVOR_NAMES, r.randint(1, 2))),
            "max_instances_per_host": lambda: r.choice(
                ["10", "20", "35", "40"]),
            "max_io_ops_per_host": lambda: r.choice(["2", "3", "5", "10"]),
            "os_distro": lambda: r.choice(["windows", "ubuntu", "rhel"]),
            "hw_architecture": lambda: r.choice(["x86_64", "aarch64"]),
            "hypervisor_type": lambda: r.choice(["QEMU", "qemu"]),
            "ram_weight_multiplier": lambda: r.choice(AGG_MULT_VALUES),
            "disk_weight_multiplier": lambda: r.choice(AGG_MULT_VALUES),
            "io_ops_weight_multiplier": lambda: r.choice(AGG_MULT_VALUES),
            "cpu_weight_multiplier": lambda: r.choice(AGG_MULT_VALUES),
            "soft_affinity_weight_multiplier": lambda: r.choice(AGG_MULT_VALUES),
            "soft_anti_affinity_weight_multiplier":
                lambda: r.choice(AGG_MULT_VALUES),
            "build_failure_weight_multiplier": lambda: r.choice(
                ["0.0", "1.0", "10.0", "1000000.0"]),
            "metrics_weight_multiplier": lambda: r.choice(AGG_MULT_VALUES),
        }
        keys = list(pool)
        weights = [10, 10, 9, 9, 5, 5, 7, 5, 3, 5, 4, 5, 2, 4, 5, 1, 1]
        md = {}
        for _ in range(r.choice([0, 1, 1, 2, 2, 3])):
            k = self.wchoice(keys, weights)
            md[k] = pool[k]()
        return md

    def aggregates(self, names):
        r = self.r
        aggs = []
        for i in range(r.choice([0, 1, 1, 2, 2, 3, 4, 5])):
            a = {"name": "agg-%d" % i,
                 "hosts": r.sample(names, r.randint(1, len(names))),
                 "metadata": self.agg_metadata()}
            az = self.wchoice([None, "az1", "az2"], [6, 2, 2])
            if az:
                a["availability_zone"] = az
            aggs.append(a)
        return aggs

    # ------------------------------------------------------------ request
    def extra_specs(self):
        r = self.r
        pool = [
            ("aggregate_instance_extra_specs:ssd", lambda: "true"),
            ("aggregate_instance_extra_specs:gpu",
             lambda: r.choice(["true", "false"])),
            ("hw:cpu_policy", lambda: r.choice(["shared", "dedicated"])),
            ("capabilities:cpu_info:features", lambda: r.choice(
                ["<all-in> aes mmx", "<in> avx2", "<all-in> avx512f",
                 "<in> vmx", "<all-in> aes"])),
            ("capabilities:cpu_info:vendor", lambda: r.choice(
                ["<or> Intel <or> AMD", "s== Intel", "s== AMD", "AMD",
                 "s!= Intel"])),
            ("capabilities:hypervisor_version", lambda: "%s %d" % (
                r.choice(["<=", ">=", "==", "!="]), r.choice(HV_VERSIONS))),
            ("capabilities:hypervisor_type", lambda: r.choice(
                ["s== QEMU", "QEMU", "<in> VMware", "s!= ironic"])),
            ("num_instances", lambda: "%s %d" % (
                r.choice(["<=", ">="]), r.randint(5, 55))),
            ("free_ram_mb", lambda: ">= %d" % r.choice(
                [4096, 16384, 65536, 131072])),
            ("vcpus_total", lambda: ">= %d" % r.choice([16, 32, 64])),
            ("capabilities:vcpus_total", lambda: "= %d" % r.choice([16, 32, 64])),
            ("hw:mem_page_size", lambda: "large"),
            ("quota:disk_read_bytes_sec", lambda: "10240000"),
        ]
        weights = [14, 14, 5, 6, 6, 7, 3, 4, 4, 2, 2, 2, 1]
        specs = {}
        for _ in range(r.choice([0, 0, 1, 1, 2, 2, 3])):
            k, v = self.wchoice(pool, weights)
            specs[k] = v()
        return specs

    def image_props(self):
        r = self.r
        pool = [
            ("hw_architecture", lambda: r.choice(["x86_64", "aarch64",
                                                  "x86_64", "i686"])),
            ("img_hv_type", lambda: r.choice(["qemu", "kvm", "xen"])),
            ("hw_vm_mode", lambda: r.choice(["hvm", "xen"])),
            ("os_distro", lambda: r.choice(["rhel", "ubuntu", "windows"])),
            ("img_hv_requested_version", lambda: r.choice(
                [">=6.0", ">=7.1", "<8.0", ">=4.2"])),
        ]
        weights = [10, 5, 3, 5, 2]
        props = {}
        for _ in range(r.choice([0, 0, 1, 1, 2, 3])):
            k, v = self.wchoice(pool, weights)
            props[k] = v()
        return props

    def request(self, hosts, groups):
        r = self.r
        all_inst = [u for h in hosts for u in h["instances"]]
        req = {
            "flavor": {
                "name": r.choice(FLAVOR_NAMES),
                "vcpus": r.choice([1, 2, 4, 8, 16]),
                "memory_mb": r.choice([512, 2048, 8192, 32768]),
                "root_gb": r.choice([1, 10, 160]),
                "ephemeral_gb": r.choice([0, 0, 20]),
                "extra_specs": self.extra_specs(),
            },
            "image": {"id": self.uuid(), "properties": self.image_props()},
            "num_instances": r.randint(1, 5),
            "project_id": r.choice(PROJECTS),
        }
        az = self.wchoice([None, "az1", "az2", "nova"], [5, 2, 2, 2])
        if az:
            req["availability_zone"] = az
        hints = {}
        if all_inst and self.chance(0.5):
            hints["different_host"] = r.sample(all_inst,
                                               min(len(all_inst), 2))
        if all_inst and self.chance(0.15):
            hints["same_host"] = r.sample(all_inst, 1)
        if self.chance(0.25):
            hints["query"] = jdump(r.choice(QUERIES_NORMAL))
        if self.chance(0.12):
            ip = r.choice(hosts)["host_ip"]
            hints["build_near_host_ip"] = ip
            if self.chance(0.6):
                hints["cidr"] = r.choice(["/24", "/16", "/23", "/32"])
        if hints:
            req["scheduler_hints"] = hints
        if groups and self.chance(0.7):
            req["server_group"] = groups[0]["uuid"]
        return req

    def server_groups(self, hosts):
        r = self.r
        all_inst = [u for h in hosts for u in h["instances"]]
        if not all_inst or not self.chance(0.6):
            return []
        g = {"uuid": self.uuid(), "name": "grp",
             "policy": r.choice(["affinity", "anti-affinity",
                                 "soft-affinity", "soft-anti-affinity"]),
             "members": r.sample(all_inst, min(len(all_inst),
                                               r.randint(1, 4)))}
        if g["policy"] == "anti-affinity" and self.chance(0.25):
            g["rules"] = {"max_server_per_host": r.choice([2, 3])}
        return [g]

    # ------------------------------------------------------------- config
    def config(self, image_id):
        r = self.r
        c = {
            "enabled_filters": r.sample(FILTERS, r.randint(2, 9)),
            "max_attempts": r.randint(1, 3),
            "max_instances_per_host": r.choice([20, 40, 50]),
            "max_io_ops_per_host": r.choice([4, 6, 8]),
        }
        if self.chance(0.04):
            c["enabled_filters"].insert(
                r.randint(0, len(c["enabled_filters"])), r.choice(EXTRA_FILTERS))
        if self.chance(0.5):
            c["weighers"] = list(WEIGHERS)
        elif self.chance(0.08):
            c["weighers"] = "all"
        else:
            c["weighers"] = r.sample(WEIGHERS, r.randint(1, 6))
        for key in ("ram_weight_multiplier", "cpu_weight_multiplier",
                    "disk_weight_multiplier", "io_ops_weight_multiplier"):
            if self.chance(0.22):
                c[key] = r.choice(MULT_VALUES)
        for key in ("soft_affinity_weight_multiplier",
                    "soft_anti_affinity_weight_multiplier",
                    "pci_weight_multiplier"):
            if self.chance(0.1):
                c[key] = r.choice(NONNEG_MULT)
        if self.chance(0.15):
            c["build_failure_weight_multiplier"] = r.choice(
                [0.0, 0.5, 2.0, 1000000.0])
        if self.chance(0.05):
            c["cross_cell_move_weight_multiplier"] = r.choice([0.0, 2.0])
        if self.chance(0.5):
            c["metrics_required"] = self.chance(0.8)
            c["metrics_weight_setting"] = r.choice(METRIC_SETTINGS)
            if self.chance(0.15):
                c["metrics_weight_multiplier"] = r.choice([-1.0, 0.0, 2.0])
            if self.chance(0.1):
                c["metrics_weight_of_unavailable"] = r.choice([-1.0, 0.0, 100.0])
        if self.chance(0.3):
            c["isolated_hosts"] = ["cmp-000"]
            c["isolated_images"] = [image_id if self.chance(0.4)
                                    else self.uuid()]
            if self.chance(0.8):
                c["restrict_isolated_hosts_to_isolated_images"] = \
                    self.chance(0.6)
        if self.chance(0.12):
            ns, sep = r.choice([("hw", "_"), ("os", "_"), ("hw", "."),
                                ("os_distro", ".")])
            c["aggregate_image_properties_isolation_namespace"] = ns
            c["aggregate_image_properties_isolation_separator"] = sep
        if self.chance(0.06):
            c["host_subset_size"] = r.choice([2, 3])
        return c

    # ----------------------------------------------------------- scenario
    def normal(self):
        r = self.r
        u = r.random()
        if u < 0.06:
            n = r.randint(1, 4)
        elif u < 0.93:
            n = r.randint(8, 32)
        else:
            n = r.randint(33, 40)
        p_cell2 = r.choice([0.0, 0.15, 0.3, 0.4, 0.5])
        n_subnets = r.randint(1, 3)
        hosts = [self.host(i, p_cell2, n_subnets) for i in range(n)]
        names = [h["name"] for h in hosts]
        aggs = self.aggregates(names)
        groups = self.server_groups(hosts)
        req = self.request(hosts, groups)
        cfg = self.config(req["image"]["id"])
        return {"aggregates": aggs, "config": cfg, "hosts": hosts,
                "request": req, "server_groups": groups}

    # ------------------------------------------------------ hard mutations
    def hard(self):
        s = self.normal()
        muts = list(HARD_MUTATIONS)
        k = self.r.choice([2, 3, 3, 4, 5])
        applied = []
        for name in self.r.sample(sorted(muts), k):
            HARD_MUTATIONS[name](self, s)
            applied.append(name)
        return s, applied


# ----------------------------------------------------------------------------
# Hard-mode mutations. Each takes (gen, scenario) and edits it in place.

def ensure_filter(s, name, r, front=False):
    f = s["config"].setdefault("enabled_filters", [])
    if name not in f:
        f.insert(0 if front else r.randint(0, len(f)), name)


def all_instances(s):
    return [u for h in s["hosts"] for u in h.get("instances", [])]


def m_bad_agg_multiplier(g, s):
    r = g.r
    if not s["aggregates"]:
        s["aggregates"].append({"name": "agg-x", "hosts": [h["name"] for h in
                                s["hosts"]], "metadata": {}})
    key = r.choice(["ram_weight_multiplier", "disk_weight_multiplier",
                    "io_ops_weight_multiplier", "cpu_weight_multiplier",
                    "soft_affinity_weight_multiplier",
                    "soft_anti_affinity_weight_multiplier",
                    "build_failure_weight_multiplier",
                    "metrics_weight_multiplier", "pci_weight_multiplier"])
    for a in r.sample(s["aggregates"], r.randint(1, len(s["aggregates"]))):
        a["metadata"][key] = r.choice(["abc", "1,5", " 2.0 ", "1e3", "-0",
                                       "", "2.5x", "-1.5", "0x10", "+4",
                                       "1_000", "- 1", ".5", "5."])
    s["config"]["weighers"] = "all" if g.chance(0.5) else list(WEIGHERS)


def m_agg_values_spaces(g, s):
    r = g.r
    names = [h["name"] for h in s["hosts"]]
    md = r.choice([
        {"filter_tenant_id": "proj-a, proj-b"},
        {"filter_tenant_id": " proj-c ,proj-a"},
        {"filter_tenant_id": ""},
        {"instance_type": " m1.small , c1.tiny"},
        {"instance_type": "m1.small,,gpu.xl"},
        {"ssd": "true, false"},
        {"gpu": " true"},
        {"max_instances_per_host": " 30 "},
        {"max_instances_per_host": "12.5"},
        {"max_io_ops_per_host": "five"},
        {"max_io_ops_per_host": "1"},
        {"os_distro": "rhel, ubuntu"},
        {"hw_architecture": "x86_64,aarch64"},
    ])
    s["aggregates"].append({"name": "agg-sp", "hosts": r.sample(
        names, r.randint(1, len(names))), "metadata": md})
    k = list(md)[0]
    flt = {"filter_tenant_id": "AggregateMultiTenancyIsolation",
           "instance_type": "AggregateTypeAffinityFilter",
           "ssd": "AggregateInstanceExtraSpecsFilter",
           "gpu": "AggregateInstanceExtraSpecsFilter",
           "max_instances_per_host": "AggregateNumInstancesFilter",
           "max_io_ops_per_host": "AggregateIoOpsFilter",
           "os_distro": "AggregateImagePropertiesIsolation",
           "hw_architecture": "AggregateImagePropertiesIsolation"}[k]
    ensure_filter(s, flt, r)
    if k in ("ssd", "gpu"):
        s["request"]["flavor"]["extra_specs"][
            "aggregate_instance_extra_specs:" + k] = r.choice(
            ["true", "false", "<in> tru", "s== true"])
    if k in ("os_distro", "hw_architecture"):
        s["request"]["image"]["properties"][k] = r.choice(
            ["rhel", "ubuntu"] if k == "os_distro" else ["x86_64", "aarch64"])


def m_extra_spec_operators(g, s):
    r = g.r
    specs = s["request"]["flavor"]["extra_specs"]
    choices = [
        ("capabilities:cpu_info:vendor", ["<or>", "<or> Intel", "<or> AMD <or>",
                                          "<or> Intel AMD", "<or> Foo <or> Intel <or> AMD",
                                          "s==", "s< J", "s<= Intel", "s> Intel",
                                          "s>= B", "<in>", "<in> nte", "Intel ",
                                          "", "<all-in> I n"]),
        ("capabilities:hypervisor_version", [">=", "= 6002000", "== 6002000.0",
                                             "!= 8000000", "< 7001000",
                                             "s== 8000000", "<in> 00",
                                             "<or> 8000000 <or> 4002000",
                                             "= abc"]),
        ("capabilities:cpu_info:features", ["<all-in>", "<all-in> avx",
                                            "<in> 'aes'", "<in> ['fpu'",
                                            "<all-in> aes avx512f vmx",
                                            "[]", "s== []"]),
        ("capabilities:cpu_info:arch", ["x86_64", "s!= x86_64", "<in> 86"]),
        ("capabilities:cpu_info:topology:sockets", [">= 1", "1"]),
        ("capabilities:cpu_info", ["<in> Intel", "<in> \"vendor\": \"AMD\""]),
        ("capabilities:free_ram_mb", [">= 1", "= 100000", "<= 0", "s< 5"]),
        ("capabilities:num_io_ops", ["<= 3", "== 0", ">= 5"]),
        ("capabilities:stats:io_workload", ["<= 3", "s== 0", "<or> 1 <or> 2"]),
        ("capabilities:io_workload", ["<= 4"]),
        ("capabilities:hypervisor_type", ["<in> Server", "s== ironic",
                                          "<or> QEMU <or> ironic"]),
        ("capabilities:supported_instances", ["<in> aarch64", "<in> xen"]),
        ("capabilities:host_ip", ["<in> 10.0.1.", "s== 10.0.0.7"]),
        ("capabilities:nonexistent", ["x"]),
        ("capabilities:cpu_allocation_ratio", ["= 4.0", "s== 16.0", ">= 4"]),
        ("capabilities", ["anything"]),
    ]
    choices.append(("capabilities:cpu_info:vendor",
                    ["s<= Intel", "s> AMD", "s< Intel", "s>= Intel",
                     "s!= AMD"]))
    for _ in range(r.randint(1, 3)):
        k, vals = r.choice(choices)
        specs[k] = r.choice(vals)
    ensure_filter(s, "ComputeCapabilitiesFilter", r, front=g.chance(0.5))


def m_unscoped_specs(g, s):
    r = g.r
    specs = s["request"]["flavor"]["extra_specs"]
    pool = [
        ("free_ram_mb", [">= 16384", "<= 100000", "= 50000", "65536"]),
        ("free_disk_mb", [">= 102400", "<= 500000"]),
        ("num_instances", ["<= 30", ">= 10", "!= 0"]),
        ("num_io_ops", ["<= 5", "== 3"]),
        ("hypervisor_version", [">= 7001000", "s== 8000000", "6002000"]),
        ("hypervisor_type", ["QEMU", "s!= QEMU", "<in> VM"]),
        ("vcpus_used", ["<= 64", ">= 10"]),
        ("vcpus_total", [">= 32", "== 48"]),
        ("total_usable_ram_mb", [">= 131072"]),
        ("total_usable_disk_gb", ["<= 1000"]),
        ("disk_mb_used", [">= 102400"]),
        ("failed_builds", ["== 0", "<= 1"]),
        ("io_workload", ["<= 4", "s== 10"]),
        ("host", ["s>= cmp-010", "<in> 00"]),
        ("nodename", ["<or> cmp-001 <or> cmp-002 <or> cmp-003"]),
        ("cpu_allocation_ratio", [">= 4", "16.0"]),
        ("ram_allocation_ratio", ["== 1.5"]),
        ("host_ip", ["<in> 10.0.0."]),
        ("cell_uuid", ["<in> -"]),
        ("not_an_attribute", ["whatever"]),
        ("hypervisor_hostname", ["<in> cmp"]),
    ]
    for _ in range(r.randint(1, 3)):
        k, vals = r.choice(pool)
        specs[k] = r.choice(vals)
    ensure_filter(s, "ComputeCapabilitiesFilter", r)
    if g.chance(0.5):
        ensure_filter(s, "AggregateInstanceExtraSpecsFilter", r)
        if s["aggregates"] and g.chance(0.5):
            a = r.choice(s["aggregates"])
            k = r.choice(list(specs))
            a["metadata"][k.split(":", 1)[-1]] = r.choice(
                ["16384", "true", "QEMU", "x"])


def m_az_lists(g, s):
    r = g.r
    names = [h["name"] for h in s["hosts"]]
    s["aggregates"].append({
        "name": "agg-az", "availability_zone": r.choice(
            ["az1,az2", "az2, az3", "nova", "az3"]),
        "hosts": r.sample(names, r.randint(1, len(names))), "metadata": {}})
    if g.chance(0.3):
        s["aggregates"].append({
            "name": "agg-az-md", "hosts": r.sample(names, r.randint(1, len(names))),
            "metadata": {"availability_zone": r.choice(["az3", "az1 ,az4"])}})
    s["request"]["availability_zone"] = r.choice(
        ["az1", "az2", "az3", "nova", "az4", "zz"])
    if g.chance(0.3):
        s["config"]["default_availability_zone"] = r.choice(["az1", "zz"])
    ensure_filter(s, "AvailabilityZoneFilter", r)


def m_tiny_cloud(g, s):
    r = g.r
    n = r.choice([1, 1, 2, 3])
    s["hosts"] = s["hosts"][:n] or [g.host(0, 0.0, 1)]
    names = {h["name"] for h in s["hosts"]}
    for a in s["aggregates"]:
        a["hosts"] = [h for h in a["hosts"] if h in names] or [r.choice(sorted(names))]
    s["request"]["num_instances"] = r.randint(1, 4)


def m_all_hosts_equal(g, s):
    r = g.r
    base = dict(s["hosts"][0])
    n = r.randint(3, 12)
    hosts = []
    for i in range(n):
        h = json.loads(json.dumps(base))
        h["name"] = "cmp-%03d" % i
        h["instances"] = [g.uuid() for _ in h.get("instances", [])]
        h["service"] = {"disabled": False, "up": True}
        if g.chance(0.3):
            h["cell"] = r.choice(["cell1", "cell2"])
        hosts.append(h)
    r.shuffle(hosts)  # names not in order: ties must keep input order
    s["hosts"] = hosts
    s["aggregates"] = []
    s["server_groups"] = []
    s["request"].pop("server_group", None)
    s["request"].pop("scheduler_hints", None)
    s["config"]["enabled_filters"] = r.sample(
        ["ComputeFilter", "AllHostsFilter", "NumInstancesFilter",
         "IoOpsFilter"], r.randint(1, 3))
    s["config"]["max_instances_per_host"] = 1000
    s["config"]["max_io_ops_per_host"] = 1000
    s["config"]["weighers"] = r.choice(["all", list(WEIGHERS),
                                        ["CrossCellWeigher"], ["PCIWeigher"]])
    s["config"].pop("metrics_required", None)
    s["config"].pop("metrics_weight_setting", None)
    s["request"]["num_instances"] = r.randint(1, 5)
    s["config"]["max_attempts"] = r.randint(1, 4)


def m_exhaust_capacity(g, s):
    r = g.r
    n = r.randint(2, 6)
    s["hosts"] = s["hosts"][:n]
    for h in s["hosts"]:
        h["memory_mb"] = r.choice([16384, 32768])
        h["memory_mb_used"] = r.randint(0, h["memory_mb"])
        h["local_gb"] = 200
        h["local_gb_used"] = r.randint(0, 200)
    s["request"]["num_instances"] = 5
    s["request"]["flavor"]["memory_mb"] = r.choice([8192, 16384])
    s["request"]["flavor"]["root_gb"] = 80
    q = r.choice([[">=", "$free_ram_mb", s["request"]["flavor"]["memory_mb"]],
                  [">=", "$free_disk_mb", 81920],
                  ["<", "$num_instances", r.randint(5, 40)],
                  ["<=", "$vcpus_used", 100]])
    s["request"].setdefault("scheduler_hints", {})["query"] = jdump(q)
    ensure_filter(s, "JsonFilter", r)
    if g.chance(0.4):
        s["config"]["max_instances_per_host"] = max(
            h["num_instances"] for h in s["hosts"]) + r.randint(0, 2)
        ensure_filter(s, "NumInstancesFilter", r)
    names = {h["name"] for h in s["hosts"]}
    for a in s["aggregates"]:
        a["hosts"] = [x for x in a["hosts"] if x in names]
    s["config"]["weighers"] = r.choice(["all", ["RAMWeigher"],
                                        ["DiskWeigher", "RAMWeigher"]])
    s["config"]["ram_weight_multiplier"] = r.choice([1.0, -1.0])


def m_group_multi(g, s):
    r = g.r
    all_inst = all_instances(s)
    policy = r.choice(["affinity", "anti-affinity", "soft-affinity",
                       "soft-anti-affinity"])
    members = r.sample(all_inst, min(len(all_inst), r.randint(0, 3)))
    grp = {"uuid": g.uuid(), "name": "grp-hard", "policy": policy,
           "members": members}
    if policy == "anti-affinity" and g.chance(0.5):
        grp["rules"] = {"max_server_per_host": r.choice([1, 2, 3])}
    s["server_groups"].append(grp)
    s["request"]["server_group"] = grp["name"] if g.chance(0.3) else grp["uuid"]
    s["request"]["num_instances"] = r.randint(2, 5)
    if policy in ("affinity", "anti-affinity"):
        ensure_filter(s, "ServerGroupAffinityFilter" if policy == "affinity"
                      else "ServerGroupAntiAffinityFilter", r)
    else:
        w = s["config"].get("weighers")
        nm = ("ServerGroupSoftAffinityWeigher" if policy == "soft-affinity"
              else "ServerGroupSoftAntiAffinityWeigher")
        if isinstance(w, list) and nm not in w:
            w.append(nm)


def m_cells_alternates(g, s):
    r = g.r
    cells = ["cell1", "cell2", "cell3"]
    for h in s["hosts"]:
        h["cell"] = r.choice(cells)
    s["config"]["max_attempts"] = r.randint(2, 5)
    s["request"]["num_instances"] = r.randint(1, 5)


def m_json_queries(g, s):
    r = g.r
    names = [h["name"] for h in s["hosts"]]
    q = r.choice([
        ["and", [">=", "$free_ram_mb", 8192], ["<=", "$num_instances", 40]],
        ["or", ["=", "$hypervisor_type", "QEMU"], [">", "$vcpus_total", 64]],
        ["not", [">=", "$free_disk_mb", 512000]],
        ["and", ["not", ["=", "$host", names[0]]]],   # list truthiness
        ["or", ["not", ["=", "$host", names[0]]]],
        ["not", ["=", "$host", names[0]], ["=", "$host", names[-1]]],
        ["=", "$service.disabled", False],
        ["=", "$service.disabled", True],
        ["in", "$hypervisor_version", 6002000, 8000000],
        [">=", "$hypervisor_version", 7001000],
        ["<", "$vcpus_used", "$vcpus_total"],
        [">", "$free_ram_mb", "$free_disk_mb"],
        ["=", "$cpu_info", "x"],
        ["in", "$cpu_info", "x"],
        ["=", "$cpu_info.vendor", "Intel"],              # AttributeError
        ["=", "$stats.io_workload", "3"],
        [">=", "$stats.num_instances", "3"],
        ["=", "$nonexistent", 1],
        [">=", "$free_ram_mb"],
        ["=", "$host"],
        [],
        ["and"],
        ["or"],
        ["not"],
        ["=", "$hypervisor_type", "QEMU", "QEMU"],
        ["in", "$host"] + r.sample(names, min(len(names), 3)),
        [">", "$host", 5],                               # TypeError
        ["~", "$host", "cmp"],                           # KeyError
        ["=", "$host_ip", s["hosts"][0]["host_ip"]],
        ["=", "$nodename", names[-1]],
        [">=", "$cpu_allocation_ratio", 4],
        ["<=", "$ram_allocation_ratio", 1.0],
        ["=", "$cell_uuid", "x"],
        ["and", ["=", "$total_usable_ram_mb", 262144], True],
        ["or", False, 0, ""],
        ["<", "$num_io_ops", 5],
        [">=", "$failed_builds", 1],
        ["=", "$hypervisor_hostname", names[0]],
        [">", "$disk_mb_used", 0],
        ["=", "", ""],
        ["=", 1, 1.0],
        ["<=", "$free_ram_mb", 0],
    ])
    qs = jdump(q)
    if g.chance(0.07):
        qs = r.choice(["[\">=\", \"$free_ram_mb\"", "not json", "{}",
                       "\"x\"", "5", "null", "[\">=\" \"$free_ram_mb\" 5]"])
    s["request"].setdefault("scheduler_hints", {})["query"] = qs
    ensure_filter(s, "JsonFilter", r, front=g.chance(0.5))


def m_metrics(g, s):
    r = g.r
    c = s["config"]
    c["metrics_weight_setting"] = r.choice([
        "cpu.percent=1.0, cpu.frequency", "cpu.percent=abc",
        "cpu.percent = 1.0", "cpu.user.percent=1.0, cpu.idle.percent=-1.0",
        "cpu.kernel.percent=2.0", "cpu.user.time=0.001",
        "cpu.frequency=0.0", "cpu.percent=-1.0, cpu.percent=2.0",
        "=1.0", "cpu.percent=1e2", "", "cpu.iowait.time=-0.01, cpu.frequency=1",
    ])
    c["metrics_required"] = g.chance(0.4)
    if g.chance(0.5):
        c["metrics_weight_multiplier"] = r.choice([0.0, -2.0, 1.0, 3.5])
    if g.chance(0.5):
        c["metrics_weight_of_unavailable"] = r.choice([-10000.0, 0.0, 55.5])
    for h in s["hosts"]:
        if g.chance(0.75):
            names = r.sample(ALL_METRICS, r.randint(1, 5))
            h["metrics"] = [{"name": n, "value": r.choice([
                round(r.uniform(0, 100), 2), 0.29, 0.57, 1.15, 4.35, 8.2,
                r.randint(0, 3000000000), 33.3, 99.99, 0])} for n in names]
        else:
            h.pop("metrics", None)
    w = c.get("weighers")
    if isinstance(w, list) and "MetricsWeigher" not in w:
        w.append("MetricsWeigher")
    if g.chance(0.5):
        ensure_filter(s, "MetricsFilter", r)
    if s["aggregates"] and g.chance(0.3):
        r.choice(s["aggregates"])["metadata"]["metrics_weight_multiplier"] = \
            r.choice(["0", "-1.0", "2.0", "x"])


def m_force_ignore(g, s):
    r = g.r
    names = [h["name"] for h in s["hosts"]]
    req = s["request"]
    kind = r.choice(["ignore", "force", "nodes", "ignore_all", "mixed",
                     "force_missing", "ignore_case"])
    if kind == "ignore":
        req["ignore_hosts"] = r.sample(names, r.randint(1, max(1, len(names) // 2)))
    elif kind == "ignore_case":
        req["ignore_hosts"] = [n.upper() for n in r.sample(names, 1)]
        req["force_hosts"] = [n.upper() for n in r.sample(names, min(3, len(names)))]
    elif kind == "force":
        req["force_hosts"] = r.sample(names, r.randint(1, min(3, len(names))))
    elif kind == "nodes":
        req["force_nodes"] = r.sample(names, r.randint(1, min(3, len(names))))
    elif kind == "ignore_all":
        req["ignore_hosts"] = list(names)
    elif kind == "mixed":
        req["ignore_hosts"] = r.sample(names, 1)
        req["force_hosts"] = r.sample(names, min(2, len(names)))
        req["force_nodes"] = r.sample(names, min(2, len(names)))
    else:
        req["force_hosts"] = ["no-such-host"]


def m_image_props(g, s):
    r = g.r
    props = s["request"]["image"]["properties"]
    k, v = r.choice([
        ("hw_architecture", "AMD64"), ("hw_architecture", "i386"),
        ("hw_architecture", "X86_64"), ("hw_architecture", "arm64"),
        ("hw_architecture", "ppc64le"), ("architecture", "aarch64"),
        ("hypervisor_type", "xen"), ("img_hv_type", "QEMU"),
        ("img_hv_type", "xapi"), ("img_hv_type", "vmware"),
        ("hw_vm_mode", "hv"), ("hw_vm_mode", "pv"), ("hw_vm_mode", "HVM"),
        ("vm_mode", "xen"), ("img_hv_requested_version", ">=6.0,<8.0"),
        ("img_hv_requested_version", "==8.0.0"),
        ("img_hv_requested_version", "=>6"),
        ("img_hv_requested_version", "<7.1.0"),
        ("hypervisor_version_requires", ">7.0"),
        ("os_distro", "windows"), ("vmware_ostype", "rhel"),
        ("hw_cpu_policy", "dedicated"),
        ("img_hv_type", "lxc"),
    ])
    props[k] = v
    ensure_filter(s, "ImagePropertiesFilter", r)
    if g.chance(0.4):
        for h in r.sample(s["hosts"], max(1, len(s["hosts"]) // 2)):
            h["supported_instances"] = [r.choice([
                ["x86_64", "qemu", "hvm"], ["aarch64", "kvm", "hvm"],
                ["i686", "xen", "xen"], ["x86_64", "vmware", "hvm"],
                ["ppc64le", "kvm", "hvm"], ["x86_64", "lxc", "exe"]])]
    if g.chance(0.3):
        ensure_filter(s, "AggregateImagePropertiesIsolation", r)
        if s["aggregates"]:
            r.choice(s["aggregates"])["metadata"][r.choice(
                ["hw_architecture", "img_hv_type", "hw_vm_mode",
                 "os_distro", "architecture"])] = v


def m_isolated(g, s):
    r = g.r
    c = s["config"]
    names = [h["name"] for h in s["hosts"]]
    c["isolated_hosts"] = r.sample(names, r.randint(0, min(4, len(names))))
    if g.chance(0.3):
        c["isolated_hosts"].append("CMP-000")
    c["isolated_images"] = r.choice([[], [s["request"]["image"]["id"]],
                                     [g.uuid(), s["request"]["image"]["id"]],
                                     [g.uuid()]])
    c["restrict_isolated_hosts_to_isolated_images"] = g.chance(0.5)
    ensure_filter(s, "IsolatedHostsFilter", r)
    if g.chance(0.15):
        s["request"]["image"].pop("id", None)


def m_agg_image_isolation(g, s):
    r = g.r
    c = s["config"]
    ns, sep = r.choice([(None, "."), ("hw", "_"), ("os", "_"), ("hw_", ""),
                        ("os_distro", "."), ("", "."), ("x", "x")])
    if ns is None:
        c.pop("aggregate_image_properties_isolation_namespace", None)
    else:
        c["aggregate_image_properties_isolation_namespace"] = ns
    c["aggregate_image_properties_isolation_separator"] = sep
    names = [h["name"] for h in s["hosts"]]
    s["aggregates"].append({"name": "agg-img", "hosts": r.sample(
        names, r.randint(1, len(names))), "metadata": r.choice([
            {"os_distro": "rhel"}, {"hw_architecture": "aarch64,x86_64"},
            {"hw_vm_mode": "hvm"}, {"img_hv_type": "kvm"},
            {"os_type": "linux"}, {"hw_disk_bus": "virtio"},
            {"hw_qemu_guest_agent": "True"}])})
    props = s["request"]["image"]["properties"]
    props.update(r.choice([{"os_distro": "rhel"}, {"os_distro": "ubuntu"},
                           {"hw_architecture": "x86_64"},
                           {"os_type": "linux"}, {"hw_disk_bus": "virtio"},
                           {"hw_qemu_guest_agent": "yes"},
                           {"hw_qemu_guest_agent": True},
                           {"img_hv_type": "kvm"}]))
    ensure_filter(s, "AggregateImagePropertiesIsolation", r)


def m_cidr(g, s):
    r = g.r
    h = r.choice(s["hosts"])
    hints = s["request"].setdefault("scheduler_hints", {})
    hints["build_near_host_ip"] = r.choice([h["host_ip"], "10.0.1.0",
                                            "10.0.0.1", "192.168.0.1"])
    if g.chance(0.8):
        hints["cidr"] = r.choice(["/24", "/16", "/8", "/32", "/23", "/0",
                                  "/25", "/24", "/16", "16"])
    ensure_filter(s, "SimpleCIDRAffinityFilter", r)


def m_same_different(g, s):
    r = g.r
    inst = all_instances(s)
    hints = s["request"].setdefault("scheduler_hints", {})
    choice = r.choice(["unknown", "single", "both", "many"])
    if choice == "unknown" or not inst:
        hints["same_host"] = [g.uuid()]
    elif choice == "single":
        hints[r.choice(["same_host", "different_host"])] = r.choice(inst)
    elif choice == "both":
        u = r.choice(inst)
        hints["same_host"] = [u]
        hints["different_host"] = [u]
    else:
        hints["different_host"] = r.sample(inst, min(len(inst), 6))
    ensure_filter(s, "SameHostFilter", r)
    ensure_filter(s, "DifferentHostFilter", r)


def m_weird_hosts(g, s):
    r = g.r
    for h in r.sample(s["hosts"], max(1, len(s["hosts"]) // 3)):
        k = r.choice(["overcommit_ram", "disk_least", "free_given",
                      "no_cpu_info", "nested_cpu_info", "no_supported",
                      "node_differs", "zero_ratio", "forced_down"])
        if k == "overcommit_ram":
            h["memory_mb_used"] = h["memory_mb"] + r.randint(1, 50000)
        elif k == "disk_least":
            h["disk_available_least"] = r.choice([0, 10, h["local_gb"] * 2,
                                                  -5])
        elif k == "free_given":
            h["free_ram_mb"] = r.choice([0, -1024, 4096, 999999])
            h["free_disk_gb"] = r.choice([0, 5, 100])
        elif k == "no_cpu_info":
            h["cpu_info"] = {}
        elif k == "nested_cpu_info":
            h["cpu_info"] = {"arch": "x86_64", "vendor": "Intel",
                             "model": "Cascadelake-Server",
                             "topology": {"sockets": 2, "cores": 16,
                                          "threads": 2},
                             "features": ["avx", "aes"]}
        elif k == "no_supported":
            h["supported_instances"] = []
        elif k == "node_differs":
            h["node"] = h["name"] + ".example.org"
        elif k == "zero_ratio":
            h["cpu_allocation_ratio"] = 0.0
        else:
            h["service"] = {"disabled": True, "disabled_reason": "maint",
                            "up": False}


def m_no_filters_defaults(g, s):
    r = g.r
    c = s["config"]
    what = r.choice(["no_filters_key", "empty_filters", "no_weighers_key",
                     "empty_weighers", "dup_filter", "bad_config",
                     "pci_numa"])
    if what == "no_filters_key":
        c.pop("enabled_filters", None)
    elif what == "empty_filters":
        c["enabled_filters"] = []
    elif what == "no_weighers_key":
        c.pop("weighers", None)
    elif what == "empty_weighers":
        c["weighers"] = []
    elif what == "pci_numa":
        for name in EXTRA_FILTERS:
            ensure_filter(s, name, r, front=g.chance(0.5))
    elif what == "dup_filter":
        f = c.setdefault("enabled_filters", ["ComputeFilter"])
        f.append(f[0] if f else "ComputeFilter")
    else:  # oslo.config range checks -> ValueError from the reference
        c.update(r.choice([{"soft_affinity_weight_multiplier": -1.0},
                           {"pci_weight_multiplier": -0.5},
                           {"max_attempts": 0}, {"host_subset_size": 0},
                           {"max_io_ops_per_host": -1}]))


def m_multipliers(g, s):
    r = g.r
    c = s["config"]
    for key in ("ram_weight_multiplier", "cpu_weight_multiplier",
                "disk_weight_multiplier", "io_ops_weight_multiplier",
                "build_failure_weight_multiplier",
                "cross_cell_move_weight_multiplier"):
        if g.chance(0.5):
            c[key] = r.choice([-1000000.0, -0.001, 0.0, 1e-9, 7.25, 1000000.0,
                               -3.0])
    for key in ("soft_affinity_weight_multiplier",
                "soft_anti_affinity_weight_multiplier",
                "pci_weight_multiplier"):
        if g.chance(0.3):
            c[key] = r.choice([0.0, 1e6, 0.25])
    if isinstance(c.get("weighers"), list) and g.chance(0.5):
        c["weighers"] = "all"


def m_subset(g, s):
    s["config"]["host_subset_size"] = g.r.choice([2, 5, 100])
    s["config"]["shuffle_best_same_weighed_hosts"] = g.chance(0.3)


def m_nova_error(g, s):
    """Input that makes Nova raise (the whole request fails with that error),
    placed so that it is likely to be reached: its filter first."""
    r = g.r
    req = s["request"]
    kind = r.choice(["caps_float", "caps_or_empty", "aies_float", "json_attr",
                     "json_type", "json_op", "json_decode", "json_sublist",
                     "cidr", "metric_name", "image_arch", "image_predicate",
                     "config_range", "caps_float_late"])
    if kind in ("caps_float", "caps_or_empty", "caps_float_late"):
        spec = {"caps_float": ("capabilities:cpu_info:vendor", "= 5"),
                "caps_or_empty": ("capabilities:cpu_info:vendor", "<or>"),
                "caps_float_late": ("capabilities:hypervisor_type",
                                    ">= 1")}[kind]
        req["flavor"]["extra_specs"][spec[0]] = spec[1]
        ensure_filter(s, "ComputeCapabilitiesFilter", r,
                      front=kind != "caps_float_late")
    elif kind == "aies_float":
        names = [h["name"] for h in s["hosts"]]
        s["aggregates"].append({"name": "agg-err", "hosts": r.sample(
            names, max(1, len(names) // 2)), "metadata": {"tier": "gold"}})
        req["flavor"]["extra_specs"]["aggregate_instance_extra_specs:tier"] = \
            r.choice([">= 2", "== 1", "= 0"])
        ensure_filter(s, "AggregateInstanceExtraSpecsFilter", r, front=True)
    elif kind.startswith("json"):
        q = {"json_attr": jdump(["=", "$cpu_info.vendor", "Intel"]),
             "json_type": jdump([">", "$host", 5]),
             "json_op": jdump(["like", "$host", "cmp"]),
             "json_decode": "[\"=\", \"$host\" \"cmp-000\"]",
             "json_sublist": jdump(["in", "$host", ["cmp-000", "cmp-001"]]),
             }[kind]
        req.setdefault("scheduler_hints", {})["query"] = q
        ensure_filter(s, "JsonFilter", r, front=True)
    elif kind == "cidr":
        req.setdefault("scheduler_hints", {}).update(
            {"build_near_host_ip": s["hosts"][0]["host_ip"],
             "cidr": r.choice(["24", "/33", "/abc"])})
        ensure_filter(s, "SimpleCIDRAffinityFilter", r, front=True)
    elif kind == "metric_name":
        r.choice(s["hosts"]).setdefault("metrics", []).append(
            {"name": r.choice(["cpu.load", "mem.percent"]), "value": 1.0})
    elif kind == "image_arch":
        req["image"]["properties"]["hw_architecture"] = r.choice(
            ["arm64", "x86-64", "amd"])
    elif kind == "image_predicate":
        req["image"]["properties"]["img_hv_requested_version"] = r.choice(
            [">=6", "=>6.0", "6.0"])
    else:
        s["config"].update(r.choice([
            {"soft_anti_affinity_weight_multiplier": -2.0},
            {"max_attempts": 0}, {"host_subset_size": 0}]))


HARD_MUTATIONS = {
    "bad_agg_multiplier": m_bad_agg_multiplier,
    "agg_values_spaces": m_agg_values_spaces,
    "extra_spec_operators": m_extra_spec_operators,
    "unscoped_specs": m_unscoped_specs,
    "az_lists": m_az_lists,
    "tiny_cloud": m_tiny_cloud,
    "all_hosts_equal": m_all_hosts_equal,
    "exhaust_capacity": m_exhaust_capacity,
    "group_multi": m_group_multi,
    "cells_alternates": m_cells_alternates,
    "json_queries": m_json_queries,
    "metrics": m_metrics,
    "force_ignore": m_force_ignore,
    "image_props": m_image_props,
    "isolated": m_isolated,
    "agg_image_isolation": m_agg_image_isolation,
    "cidr": m_cidr,
    "same_different": m_same_different,
    "weird_hosts": m_weird_hosts,
    "no_filters_defaults": m_no_filters_defaults,
    "multipliers": m_multipliers,
    "subset": m_subset,
    "nova_error": m_nova_error,
}


def make(seed, index, hard_ratio, force=None):
    """Scenario number `index` of `seed`: (scenario, is_hard, mutations)."""
    rng = random.Random("schedscope-%s-%d" % (seed, index))
    hard = rng.random() < hard_ratio if force is None else force == "hard"
    g = Gen(rng)
    if hard:
        s, muts = g.hard()
        return s, True, muts
    return g.normal(), False, []


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--hard-ratio", type=float, default=0.3)
    ap.add_argument("--prefix", default="c")
    ap.add_argument("--start", type=int, default=0)
    grp = ap.add_mutually_exclusive_group()
    grp.add_argument("--only-hard", action="store_true")
    grp.add_argument("--only-normal", action="store_true")
    ap.add_argument("--list", action="store_true",
                    help="print file name and applied hard mutations")
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    force = "hard" if a.only_hard else ("normal" if a.only_normal else None)
    for i in range(a.start, a.start + a.count):
        s, hard, muts = make(a.seed, i, a.hard_ratio, force)
        name = "%s%04d%s.scenario.json" % (a.prefix, i, "h" if hard else "")
        path = os.path.join(a.out, name)
        # normal ones sorted like the examples; hard ones keep the insertion
        # order (extra-spec order matters to Nova's loops)
        write_if_changed(path, json.dumps(s, indent=1, sort_keys=not hard)
                         + "\n")
        if a.list:
            print(name, " ".join(muts))
    return 0


if __name__ == "__main__":
    sys.exit(main())
