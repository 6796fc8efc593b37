#!/usr/bin/env python3
"""Adversarial scenario generator: small clouds, each aimed at ONE quirk area.

Where generate.py mimics the hidden conformance set, this one goes after the
corners of Nova's code: every HostState attribute under
ComputeCapabilitiesFilter, JsonFilter's grammar and its Python errors, image
property canonicalisation and version predicates, aggregate metadata parsing
(multipliers, max_*_per_host, AZ lists, namespaces), metrics, server groups,
hint shapes, ignore/force lists, CIDR affinity, odd host values ...

usage: adversarial.py --seed N --count K --out DIR [--areas a,b] [--list]

Files: DIR/adv-<area>-<seed>-<i>.scenario.json. Scenario i depends only on
(seed, i). --list prints "name<TAB>area<TAB>what" lines.
stdlib only; run with any python3.
"""
import argparse
import json
import os
import random
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import EXTRA_FILTERS, FILTERS, WEIGHERS  # noqa: E402

ALL_WEIGHERS = list(WEIGHERS)
ALL_FILTERS = FILTERS + EXTRA_FILTERS
METRIC_NAMES = ["cpu.frequency", "cpu.user.time", "cpu.kernel.time",
                "cpu.idle.time", "cpu.iowait.time", "cpu.user.percent",
                "cpu.kernel.percent", "cpu.idle.percent",
                "cpu.iowait.percent", "cpu.percent", "numa.membw.max",
                "numa.membw.current"]
PERCENT_METRICS = [m for m in METRIC_NAMES if m.endswith("percent")]

HOST_ATTRS = [
    "free_ram_mb", "free_disk_mb", "vcpus_total", "vcpus_used",
    "total_usable_ram_mb", "total_usable_disk_gb", "disk_mb_used",
    "num_instances", "num_io_ops", "failed_builds", "host_ip",
    "hypervisor_type", "hypervisor_version", "hypervisor_hostname",
    "nodename", "host", "cpu_info", "supported_instances",
    "ram_allocation_ratio", "cpu_allocation_ratio", "disk_allocation_ratio",
    "stats", "io_workload", "service", "limits", "metrics", "aggregates",
    "instances", "uuid", "cell_uuid", "updated", "pci_stats",
    "numa_topology", "nonexistent", "capabilities", "",
]
# JsonFilter variables: the HostState attributes (not the ratios, stats keys
# or capabilities JsonFilter cannot name), each followed by paths into it,
# then paths into values that are not dicts.
JSON_PATHS = {
    "cpu_info": ["vendor"],
    "stats": ["num_instances", "io_workload", "missing"],
    "service": ["disabled", "up", "disabled_reason"],
    "limits": ["x"], "metrics": ["x"], "instances": ["inst-0-0"],
    "nonexistent": ["x"],
}
JSON_VARS = [v for a in HOST_ATTRS
             if a not in ("disk_allocation_ratio", "io_workload", "capabilities")
             for v in [a] + ["%s.%s" % (a, p) for p in JSON_PATHS.get(a, [])]
             ] + ["free_ram_mb.x", "host.x", "stats.num_instances.x"]
CAP_SCOPED = [
    "cpu_info:vendor", "cpu_info:features", "cpu_info:arch",
    "cpu_info:topology:cores", "cpu_info:topology", "cpu_info:model",
    "cpu_info:missing", "stats:io_workload", "stats:num_instances",
    "stats:failed_builds", "stats:missing", "service:disabled",
    "service:up", "limits:x", "host_ip:x", "hypervisor_type:x",
    "io_workload", "num_instances", "supported_instances:0",
    "cpu_info:vendor:x", "instances:x", "metrics:x", "aggregates:x",
    "", ":", "cpu_info:", "stats",
]
OPERATORS = ["=", "==", "!=", ">=", "<=", "s==", "s!=", "s>=", "s>", "s<=",
             "s<", "<in>", "<all-in>", "<or>", "", "foo"]

ARCH_VALUES = ["x86_64", "X86_64", "amd64", "AMD64", "i386", "i686", "x86_32",
               "aarch64", "armv7l", "ppc64le", "s390x", "bogus", ""]
HV_VALUES = ["kvm", "KVM", "qemu", "QEMU", "xen", "xapi", "XAPI", "ironic",
             "baremetal", "vmware", "hyperv", "lxc", "bogus", ""]
VM_VALUES = ["hvm", "HVM", "xen", "pv", "PV", "hv", "baremetal", "exe",
             "uml", "bogus", ""]
VERSION_PREDS = [">=6.0", "<7.0.1", "==6.2.0", "!=6.2.0", ">= 6.0, < 7.0",
                 ">=1.0,<=1.0.0", ">6", "==7.0", "<1.2.3", ">=1002.3.4",
                 "6.2", ">=abc", "", ">=6.0.0.1", "== 6.2", "<=0.0.7",
                 ">=6.0a1", "~=6.0", ">= 6.0 ,!= 6.2.0"]
HV_VERSIONS = [6002000, 1000, 7, 0, 1002003004, 7000000, 6000000, 1000001]


def dump(obj):
    return json.dumps(obj, indent=1, sort_keys=True)


class Adv(object):
    def __init__(self, rng):
        self.r = rng

    def chance(self, p):
        return self.r.random() < p

    def uuid(self):
        h = "%032x" % self.r.getrandbits(128)
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    # ---------------------------------------------------------------- base
    def host(self, i, n):
        r = self.r
        vcpus = r.choice([4, 8, 16, 32, 64])
        mem = r.choice([4096, 8192, 16384, 32768, 65536])
        gb = r.choice([100, 200, 500, 1000])
        h = {
            "name": "cmp-%03d" % i,
            "vcpus": vcpus, "vcpus_used": r.randint(0, vcpus),
            "memory_mb": mem, "memory_mb_used": r.randint(0, mem),
            "local_gb": gb, "local_gb_used": r.randint(0, gb),
            "hypervisor_type": r.choice(["QEMU", "QEMU", "ironic", "VMware vCenter Server"]),
            "hypervisor_version": r.choice([6002000, 7001000, 4002000]),
            "host_ip": "10.0.%d.%d" % (r.randint(0, 2), r.randint(1, 254)),
            "supported_instances": r.choice([
                [["x86_64", "qemu", "hvm"]], [["x86_64", "kvm", "hvm"]],
                [["i686", "qemu", "hvm"], ["x86_64", "xen", "xen"]],
                [["aarch64", "kvm", "hvm"]], []]),
            "cpu_info": {"arch": "x86_64", "vendor": r.choice(["Intel", "AMD"]),
                         "features": r.sample(["avx", "aes", "sse4.2", "vmx", "avx2"], r.randint(0, 3))},
            "num_instances": r.randint(0, 8), "num_io_ops": r.randint(0, 9),
            "failed_builds": r.choice([0, 0, 0, 1, 2]),
            "cpu_allocation_ratio": r.choice([1.0, 4.0, 16.0]),
            "ram_allocation_ratio": r.choice([1.0, 1.5]),
            "disk_allocation_ratio": 1.0,
            "service": {"disabled": self.chance(0.1), "up": not self.chance(0.05)},
            "instances": ["inst-%d-%d" % (i, k) for k in range(r.randint(0, 3))],
        }
        if self.chance(0.3):
            h["cell"] = r.choice(["cell1", "cell2"])
        return h

    def base(self, nmin=2, nmax=12):
        r = self.r
        n = r.randint(nmin, nmax)
        hosts = [self.host(i, n) for i in range(n)]
        sc = {
            "config": {
                "enabled_filters": ["ComputeFilter"],
                "weighers": r.choice(["all", ["RAMWeigher"], ["RAMWeigher", "CPUWeigher", "DiskWeigher"],
                                      list(ALL_WEIGHERS)]),
            },
            "hosts": hosts,
            "aggregates": [],
            "request": {
                "flavor": {"name": "m1.small", "vcpus": r.choice([1, 2]),
                           "memory_mb": r.choice([512, 2048]), "root_gb": r.choice([0, 10, 20]),
                           "extra_specs": {}},
                "image": {"id": "img-1", "properties": {}},
                "num_instances": r.choice([1, 1, 1, 2, 3]),
                "project_id": "proj-a",
            },
        }
        if self.chance(0.2):
            sc["config"]["max_attempts"] = r.choice([1, 2, 3, 5])
        return sc

    def filters(self, sc, names, extra_p=0.25):
        fl = list(names)
        if self.chance(extra_p):
            fl.insert(self.r.randint(0, len(fl)), self.r.choice(["ComputeFilter", "AllHostsFilter", "NumInstancesFilter"]))
        sc["config"]["enabled_filters"] = fl

    def agg(self, sc, name, hosts, md, az=None):
        a = {"name": name, "hosts": hosts, "metadata": md}
        if az is not None:
            a["availability_zone"] = az
        sc["aggregates"].append(a)
        return a

    def some_hosts(self, sc, k=None):
        names = [h["name"] for h in sc["hosts"]]
        if k is None:
            k = self.r.randint(1, len(names))
        return self.r.sample(names, min(k, len(names)))

    # ----------------------------------------------------------- areas
    def area_caps(self):
        r = self.r
        sc = self.base()
        self.filters(sc, ["ComputeCapabilitiesFilter"])
        specs = {}
        for _ in range(r.choice([1, 1, 2, 3])):
            if self.chance(0.5):
                key = r.choice(HOST_ATTRS)
            else:
                key = "capabilities:" + r.choice(HOST_ATTRS + CAP_SCOPED)
            specs[key] = self.req_value(key)
        sc["request"]["flavor"]["extra_specs"] = specs
        if self.chance(0.3):
            # make hosts look alike in some attribute so ops split them
            for h in sc["hosts"]:
                h["cpu_info"] = r.choice([
                    {"vendor": "Intel", "features": ["avx", "aes"], "topology": {"cores": 4, "threads": 2}},
                    {"vendor": "AMD", "model": "EPYC", "topology": {"cores": 8}},
                    {}, {"vendor": "Intel"}, {"features": []},
                    {"vendor": "Intel", "topology": {"cores": 2.0}}])
        if self.chance(0.25):
            # aggregates as Nova objects: str() is their repr
            names = [h["name"] for h in sc["hosts"]]
            for i in range(r.randint(1, 3)):
                a = self.agg(sc, r.choice(["agg-%d" % i, "it's", 'q"x', "caf\u00e9"]),
                             r.sample(names, r.randint(1, len(names))) + (["ghost"] if self.chance(0.3) else []),
                             {r.choice(["b", "a", "Z", "k y", "ssd"]): r.choice(["1", "x'y", "", "a,b", 2.0, True])},
                             az=r.choice([None, "az1"]))
                if self.chance(0.3):
                    a["id"] = r.choice([7, 0, 42])
            key = r.choice(["aggregates", "capabilities:aggregates"])
            specs[key] = r.choice(["<in> name='agg-0'", "<in> id=1,", "<in> hosts=['cmp-000'", "<in> metadata={a=",
                                   "<in> availability_zone='az1'", "s== []", "<in> uuid=", "<in> x'y", "<in> caf",
                                   "<in> ghost", "<in> Z='", "<in> k y='"])
            sc["request"]["flavor"]["extra_specs"] = specs
        if self.chance(0.2):
            sc["request"]["num_instances"] = 3
        return sc, "caps " + json.dumps(specs)

    def req_value(self, key):
        r = self.r
        op = r.choice(OPERATORS)
        leaf = key.split(":")[-1]
        cand = {
            "free_ram_mb": ["1024", "4096", "0", "-1", "abc", "1e3", "2048.5"],
            "free_disk_mb": ["10240", "0", "102400"],
            "vcpus_total": ["8", "16", "4.0"], "vcpus_used": ["0", "2", "8"],
            "host_ip": ["10.0.0.1", "10.0.1", "10.0", "10"],
            "hypervisor_type": ["QEMU", "qemu", "ironic", "Q", "VMware"],
            "hypervisor_version": ["6002000", "7001000", "6.2.0", "6002000.0"],
            "cpu_info": ["Intel", "avx", '{"arch"', "{}", '"vendor": "Intel"'],
            "vendor": ["Intel", "AMD", "intel"], "features": ["avx", "aes", "['avx', 'aes']", "'avx'", "[]"],
            "cores": ["4", "2", "2.0", "8"], "topology": ["cores", "{'cores': 4, 'threads': 2}", "{'cores': 8}"],
            "supported_instances": ["x86_64", "['x86_64', 'qemu', 'hvm']", "qemu", "[]"],
            "ram_allocation_ratio": ["1.0", "1", "1.5"], "cpu_allocation_ratio": ["4.0", "4", "16.0", "16"],
            "disk_allocation_ratio": ["1.0", "1"],
            "stats": ["num_instances", "{'num_instances'", "io_workload"],
            "io_workload": ["0", "1", "3", "9"], "num_instances": ["0", "1", "3", "8"],
            "service": ["False", "disabled", "{'disabled': False", "True"],
            "disabled": ["False", "True", "false"], "up": ["True"],
            "limits": ["{}", ""], "metrics": ["MonitorMetricList", "[]", "objects"],
            "aggregates": ["[]", "Aggregate"], "instances": ["{}", "inst-0-0", "inst"],
            "uuid": ["-", "a"], "cell_uuid": ["-"], "updated": ["None"],
            "pci_stats": ["PciDeviceStats", "pools", "[]"], "numa_topology": ["None"],
            "host": ["cmp-001", "cmp"], "nodename": ["cmp-001", "cmp"],
            "hypervisor_hostname": ["cmp-002"],
        }.get(leaf, ["x", "1", "True", ""])
        words = r.sample(cand, min(len(cand), r.choice([1, 1, 2, 3])))
        if op == "<or>":
            parts = []
            for w in words:
                parts += [w, "<or>"]
            if not self.chance(0.2):
                parts.pop()
            return "<or> " + " ".join(parts)
        if op == "<all-in>":
            return "<all-in> " + " ".join(words)
        if op == "":
            return words[0]
        if self.chance(0.05):
            return op
        return "%s %s" % (op, words[0])

    def json_var(self):
        return "$" + self.r.choice(JSON_VARS)

    def json_literal(self):
        r = self.r
        return r.choice([0, 1, 3, 8, 1024, 4096, 8192, 102400, -1, 1.5, 4.0,
                         "QEMU", "ironic", "cmp-001", "cmp-003", "3", "0", "",
                         True, False, None, [], {}, "x", "Intel", "10.0.0.1"])

    def json_query(self, depth=0):
        r = self.r
        op = r.choice(["=", "<", ">", "in", "<=", ">=", "not", "or", "and",
                       "=", ">=", "<", "in", "and", "or", "not"] + (["bogus", 5] if self.chance(0.04) else []))
        nargs = r.choice([0, 1, 2, 2, 2, 3, 4])
        args = []
        for _ in range(nargs):
            x = r.random()
            if x < 0.4:
                args.append(self.json_var())
            elif x < 0.7 or depth >= 2:
                args.append(self.json_literal())
            else:
                args.append(self.json_query(depth + 1))
        if op in ("not", "or", "and") and depth < 2 and self.chance(0.7):
            args = [self.json_query(depth + 1) for _ in range(r.choice([0, 1, 2, 3]))]
        return [op] + args

    def area_json(self):
        r = self.r
        sc = self.base()
        self.filters(sc, ["JsonFilter"])
        x = r.random()
        if x < 0.78:
            q = self.json_query()
            text = json.dumps(q)
        elif x < 0.84:
            text = r.choice(['[">=", "$free_ram_mb", 1024', "not json", "", "[]", "{}",
                             '{"a": 1}', "5", "0", '"="', '"abc"', "null", "true",
                             '[">=", "$free_ram_mb", NaN]', '[[">=", "$free_ram_mb", 1]]',
                             '[">=", "$free_ram_mb", 1e400]'])
        else:
            text = json.dumps(r.choice([
                ["=", "$service.disabled", False], ["=", "$service.disabled", True],
                ["<", "$stats.num_instances", 3], ["=", "$stats.num_instances", "3"],
                ["=", "$cpu_info.vendor", "Intel"], [">", "$limits", 0],
                ["=", "$nonexistent", None], ["in", "$host", "cmp-001", "cmp-002", ""],
                ["not", "$service.disabled"], ["not"], ["and"], ["or"],
                ["in", "$free_ram_mb", [1024, 2048]], ["<", "$host", "cmp-003"],
                [">=", "$free_ram_mb", "1024"], ["=", "$host_ip", "10.0.0.1"],
                ["<", "$host_ip", "$host_ip"], ["=", "$instances.inst-0-0", "inst-0-0"],
                ["=", "$supported_instances", [["x86_64", "qemu", "hvm"]]],
                ["=", 1, 1.0, True], ["<", 1, True], ["in", 1, True, "1"],
                ["=", "$ram_allocation_ratio", 1], [">", "$cpu_allocation_ratio", 2],
                ["not", ["=", "$host", "cmp-000"], ["=", "$host", "cmp-001"]],
                ["and", ["not", ["=", "$host", "cmp-000"]], [">", "$free_ram_mb", 0]],
                ["=", "$metrics", None], ["<", "$aggregates", 1], ["=", "$updated", None],
                ["<", "$updated", 1], ["=", "$pci_stats", "x"], ["<", "$pci_stats", 1],
                ["=", "$numa_topology", "x"], ["<", [], 1], ["<", [1], [2]], ["<", {}, {}],
                ["=", "$cell_uuid", "$cell_uuid"], [">", "$vcpus_total", "$vcpus_used"],
            ]))
        hint = text
        if self.chance(0.1):
            hint = r.choice([[text], [text, text], []])
        sc["request"]["scheduler_hints"] = {"query": hint}
        if self.chance(0.3):
            sc["request"]["num_instances"] = r.choice([2, 3])
        return sc, "json " + (hint if isinstance(hint, str) else json.dumps(hint))

    def area_image(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, ["ImagePropertiesFilter"])
        props = {}
        for key in r.sample(["arch", "hv", "vm", "ver"], r.randint(1, 4)):
            legacy = self.chance(0.3)
            if key == "arch":
                props["architecture" if legacy else "hw_architecture"] = r.choice(ARCH_VALUES)
            elif key == "hv":
                props["hypervisor_type" if legacy else "img_hv_type"] = r.choice(HV_VALUES)
            elif key == "vm":
                props["vm_mode" if legacy else "hw_vm_mode"] = r.choice(VM_VALUES)
            else:
                props["hypervisor_version_requires" if legacy else "img_hv_requested_version"] = r.choice(VERSION_PREDS)
        if self.chance(0.15):
            # both legacy and new name
            props["architecture"] = r.choice(ARCH_VALUES)
            props["hw_architecture"] = r.choice(ARCH_VALUES)
        sc["request"]["image"]["properties"] = props
        specs = [["x86_64", "kvm", "hvm"], ["x86_64", "qemu", "hvm"], ["i686", "qemu", "hvm"],
                 ["x86_64", "xen", "xen"], ["aarch64", "kvm", "hvm"], ["x86_64", "ironic", "hvm"],
                 ["X86_64", "QEMU", "HVM"], ["amd64", "kvm", "hvm"], ["i386", "xapi", "pv"],
                 ["x86_64", "baremetal", "hvm"], ["ppc64le", "kvm", "exe"]]
        if self.chance(0.05):
            specs.append(["bogus", "kvm", "hvm"])
        for h in sc["hosts"]:
            h["supported_instances"] = [list(s) for s in r.sample(specs, r.choice([0, 1, 1, 2]))]
            h["hypervisor_version"] = r.choice(HV_VERSIONS)
        return sc, "image " + json.dumps(props)

    def area_aiso(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, ["AggregateImagePropertiesIsolation"])
        ns = r.choice([None, None, "ns", "hw", "img", "os"])
        sep = r.choice([".", ".", "_", ":", "-", ""])
        if ns is not None:
            sc["config"]["aggregate_image_properties_isolation_namespace"] = ns
            if sep != "." or self.chance(0.3):
                sc["config"]["aggregate_image_properties_isolation_separator"] = sep
        keys = ["hw_architecture", "os_distro", "os_type", "hw_vm_mode", "img_hv_type",
                "hw_cpu_cores", "hw_qemu_guest_agent", "hw_disk_bus", "os_secure_boot",
                "hw_rng_model", "custom_prop", "ns.os_distro", "hw.os_distro", "architecture",
                "hw_machine_type", "hw_numa_nodes", "hw_watchdog_action", "img_owner_id"]
        values = {
            "hw_architecture": ["x86_64", "aarch64", "x86_64,aarch64", "amd64", "X86_64"],
            "os_distro": ["ubuntu", "windows", "ubuntu, rhel", "Ubuntu"],
            "os_type": ["linux", "windows"], "hw_vm_mode": ["hvm", "xen", "pv"],
            "img_hv_type": ["kvm", "qemu", "xapi"], "hw_cpu_cores": ["2", "4", "2,4", "02"],
            "hw_qemu_guest_agent": ["True", "true", "False", "yes", "1"],
            "hw_disk_bus": ["virtio", "scsi", "ide"], "os_secure_boot": ["required", "disabled"],
            "hw_rng_model": ["virtio"], "custom_prop": ["a", "b"],
            "hw_machine_type": ["pc", "q35"], "hw_numa_nodes": ["1", "2"],
            "hw_watchdog_action": ["reset", "none"], "img_owner_id": ["x"],
        }
        for i in range(r.randint(1, 3)):
            md = {}
            for k in r.sample(keys, r.randint(1, 3)):
                base_k = k.split(".")[-1]
                v = r.choice(values.get(base_k, ["x", "ubuntu"]))
                if ns is not None and self.chance(0.6):
                    k = ns + sep + base_k
                md[k] = v
            self.agg(sc, "agg-%d" % i, self.some_hosts(sc), md)
        props = {}
        for k in r.sample(keys, r.randint(0, 4)):
            base_k = k.split(".")[-1]
            if base_k in values:
                v = r.choice(values[base_k]).split(",")[0].strip()
                if base_k == "hw_qemu_guest_agent":
                    v = r.choice([True, False, "yes", "true", "no"])
                if base_k in ("hw_cpu_cores", "hw_numa_nodes") and self.chance(0.5):
                    v = int(v)
                props[base_k if not self.chance(0.2) else k] = v
        sc["request"]["image"]["properties"] = props
        return sc, "aiso ns=%r sep=%r props=%s" % (ns, sep, json.dumps(props))

    def area_metrics(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, r.choice([["MetricsFilter"], [], ["ComputeFilter"]]), 0)
        sc["config"]["weighers"] = r.choice([["MetricsWeigher"], "all", ["MetricsWeigher", "RAMWeigher"]])
        names = r.sample(METRIC_NAMES, 3)
        items = []
        for nm in r.sample(names, r.randint(1, 3)):
            ratio = r.choice(["1.0", "-1.0", "0", "0.5", "2", "-0.25", "abc", "", "1e2"])
            items.append("%s=%s" % (nm, ratio))
        if self.chance(0.2):
            items.append(r.choice(["bogus.metric=1.0", "cpu.percent", "=1.0", " cpu.percent = 1.0",
                                   "cpu.frequency=1.0=2"]))
        setting = ", ".join(items) if self.chance(0.7) else items
        sc["config"]["metrics_weight_setting"] = setting
        if self.chance(0.7):
            sc["config"]["metrics_required"] = r.choice([True, False, False])
        if self.chance(0.4):
            sc["config"]["metrics_weight_of_unavailable"] = r.choice([-10000.0, 0.0, 5.0, -1.0])
        if self.chance(0.4):
            sc["config"]["metrics_weight_multiplier"] = r.choice([0.0, 1.0, -1.0, 2.5])
        for h in sc["hosts"]:
            ms = []
            for nm in r.sample(names, r.randint(0, 3)):
                v = r.choice([0.29, 0.5, 41.5, -3.2, 0, 100, 99.99, 0.001, 1e6, 7, 0.57, 1.005])
                ms.append({"name": nm, "value": v})
            if self.chance(0.03):
                ms.append({"name": "bogus.metric", "value": 1})
            if ms or self.chance(0.5):
                h["metrics"] = ms
        if self.chance(0.35):
            hs = self.some_hosts(sc)
            self.agg(sc, "agg-m", hs, {"metrics_weight_multiplier": r.choice(["0", "0.0", "2", "-1", "abc", " 3 "])})
        return sc, "metrics %s" % json.dumps(setting)

    MULT_KEYS = ["ram_weight_multiplier", "cpu_weight_multiplier", "disk_weight_multiplier",
                 "io_ops_weight_multiplier", "pci_weight_multiplier", "soft_affinity_weight_multiplier",
                 "soft_anti_affinity_weight_multiplier", "build_failure_weight_multiplier",
                 "cross_cell_move_weight_multiplier", "metrics_weight_multiplier"]

    def area_aggmult(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, r.choice([[], ["ComputeFilter"], ["AllHostsFilter"]]), 0)
        sc["config"]["weighers"] = r.choice(["all", list(ALL_WEIGHERS),
                                            ["RAMWeigher", "CPUWeigher", "DiskWeigher", "IoOpsWeigher"],
                                            ["BuildFailureWeigher", "RAMWeigher"]])
        key_pool = self.MULT_KEYS[:4] + r.sample(self.MULT_KEYS, 2)
        for i in range(r.randint(1, 4)):
            md = {}
            for k in r.sample(key_pool, r.randint(1, 3)):
                md[k] = r.choice(["2", "-1.0", "0", "0.5", "1e3", " 2 ", "abc", "", "-0", "3.",
                                  ".5", "1_000", "+4", "2.5e-1", "0x10", "1,5", "10", "-2"])
            self.agg(sc, "agg-%d" % i, self.some_hosts(sc), md)
        if self.chance(0.3):
            sc["config"]["ram_weight_multiplier"] = r.choice([-1.0, 0.0, 2.0])
        if self.chance(0.3):
            for h in sc["hosts"]:
                h["failed_builds"] = r.choice([0, 1, 5])
        return sc, "aggmult"

    def area_aggmax(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, r.sample(["AggregateNumInstancesFilter", "AggregateIoOpsFilter",
                                   "NumInstancesFilter", "IoOpsFilter"], r.randint(1, 2)))
        for i in range(r.randint(1, 3)):
            md = {}
            for k in r.sample(["max_instances_per_host", "max_io_ops_per_host"], r.randint(1, 2)):
                md[k] = r.choice(["3", "3.0", " 4 ", "-1", "0", "5", "abc", "", "2_0", "+2", "10",
                                  "1e1", "7", "\t6\n"])
            self.agg(sc, "agg-%d" % i, self.some_hosts(sc), md)
        if self.chance(0.5):
            sc["config"]["max_instances_per_host"] = r.choice([1, 3, 5, 50])
        if self.chance(0.5):
            sc["config"]["max_io_ops_per_host"] = r.choice([0, 1, 3, 8])
        sc["request"]["num_instances"] = r.choice([1, 2, 4, 6])
        return sc, "aggmax"

    def area_az(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, ["AvailabilityZoneFilter"])
        zones = ["az1", "az2", "nova", "AZ1", "az1,az2", "az1, az2", " az1", "az2 ,nova", "", "x y"]
        for i in range(r.randint(0, 3)):
            md = {}
            if self.chance(0.4):
                md["availability_zone"] = r.choice(zones)
            self.agg(sc, "agg-%d" % i, self.some_hosts(sc), md,
                     az=r.choice([None, "az1", "az2", "az1,az2", "nova", ""]) if self.chance(0.7) else None)
        if self.chance(0.5):
            sc["config"]["default_availability_zone"] = r.choice(["nova", "az1", "az9", ""])
        sc["request"]["availability_zone"] = r.choice(["az1", "az2", "nova", "az9", "", None, "az1,az2", "AZ1", " az1"])
        return sc, "az req=%r" % sc["request"]["availability_zone"]

    def area_sg(self):
        r = self.r
        sc = self.base(2, 8)
        policy = r.choice(["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"])
        self.filters(sc, r.choice([["ServerGroupAntiAffinityFilter", "ServerGroupAffinityFilter"],
                                   ["ServerGroupAffinityFilter"], ["ServerGroupAntiAffinityFilter"]]))
        sc["config"]["weighers"] = r.choice(["all", ["ServerGroupSoftAffinityWeigher", "ServerGroupSoftAntiAffinityWeigher"],
                                            ["RAMWeigher", "ServerGroupSoftAntiAffinityWeigher"]])
        all_inst = [u for h in sc["hosts"] for u in h["instances"]]
        members = r.sample(all_inst, min(len(all_inst), r.randint(0, 5)))
        if self.chance(0.2):
            members.append("not-on-any-host")
        g = {"uuid": "11111111-2222-3333-4444-%012d" % r.randint(0, 99), "name": "grp", "policy": policy,
             "members": members}
        if self.chance(0.5):
            g["rules"] = {"max_server_per_host": r.choice([1, 2, 3, "2", "1", "3", " 2 ", "+2", 0, "2.0", "abc", "", -1])}
            if self.chance(0.2):
                g["rules"]["other_rule"] = "x"
        if self.chance(0.3):
            del g["uuid"]
        sc["server_groups"] = [g]
        if self.chance(0.3):
            sc["server_groups"].append({"uuid": "99999999-2222-3333-4444-000000000000", "name": "other",
                                        "policy": "anti-affinity", "members": all_inst[:2]})
        ref = g.get("uuid") if (g.get("uuid") and self.chance(0.6)) else "grp"
        if self.chance(0.05):
            ref = r.choice(["missing-group", "GRP"])
        sc["request"]["server_group"] = ref
        sc["request"]["num_instances"] = r.choice([1, 2, 3, 4])
        if self.chance(0.3):
            sc["config"]["soft_affinity_weight_multiplier"] = r.choice([0.0, 2.0])
            sc["config"]["soft_anti_affinity_weight_multiplier"] = r.choice([0.0, 3.0])
        return sc, "sg %s %s" % (policy, json.dumps(g.get("rules")))

    def area_hints(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, r.sample(["SameHostFilter", "DifferentHostFilter", "SimpleCIDRAffinityFilter",
                                   "JsonFilter"], r.randint(1, 3)))
        all_inst = [u for h in sc["hosts"] for u in h["instances"]] or ["none"]
        hints = {}
        for k in r.sample(["same_host", "different_host", "build_near_host_ip", "cidr", "query"], r.randint(1, 3)):
            if k in ("same_host", "different_host"):
                v = r.choice([r.sample(all_inst, min(len(all_inst), r.randint(1, 2))), r.choice(all_inst), [],
                              [r.choice(all_inst), "missing"], ["missing"], 5, [5], "", [""]])
            elif k == "build_near_host_ip":
                v = r.choice(["10.0.0.1", "10.0.1.7", ["10.0.0.1"], ["10.0.0.1", "10.0.1.1"], "", []])
            elif k == "cidr":
                v = r.choice(["/24", "/16", ["/8"], "/0", 24, ""])
            else:
                v = r.choice(['[">=", "$free_ram_mb", 0]', ['[">=", "$free_ram_mb", 0]'], [], ""])
            hints[k] = v
        sc["request"]["scheduler_hints"] = hints
        return sc, "hints " + json.dumps(hints)

    def area_force(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, r.choice([["ComputeFilter"], ["ComputeFilter", "NumInstancesFilter"], []]))
        names = [h["name"] for h in sc["hosts"]]
        if self.chance(0.3):
            for h in sc["hosts"]:
                h["node"] = r.choice([h["name"], h["name"].upper(), h["name"] + "-node"])

        def pick():
            out = []
            for _ in range(r.randint(0, 3)):
                n = r.choice(names + ["missing"])
                out.append(r.choice([n, n.upper(), n.capitalize(), n + " "]))
            return out
        for k in r.sample(["ignore_hosts", "force_hosts", "force_nodes"], r.randint(1, 3)):
            if k == "force_nodes":
                nodes = [h.get("node", h["name"]) for h in sc["hosts"]]
                v = [r.choice(nodes + ["missing", nodes[0].upper()]) for _ in range(r.randint(0, 2))]
            else:
                v = pick()
            sc["request"][k] = v if not self.chance(0.1) else None
        sc["request"]["num_instances"] = r.choice([1, 2, 3])
        return sc, "force"

    def area_cidr(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, ["SimpleCIDRAffinityFilter"])
        v6 = self.chance(0.3)
        for h in sc["hosts"]:
            if v6 and self.chance(0.7):
                h["host_ip"] = r.choice(["fd00::1", "fd00::%x" % r.randint(1, 999), "fd00:0:0:1::5",
                                         "::ffff:10.0.0.5", "::1", "2001:db8::1"])
            else:
                h["host_ip"] = r.choice(["10.0.0.%d" % r.randint(0, 255), "10.0.1.%d" % r.randint(1, 9),
                                         "192.168.0.1", "10.1.0.1", "0.0.0.0", "255.255.255.255"])
            if self.chance(0.08):
                # inet_aton forms netaddr accepts, non-canonical IPv6, invalid
                h["host_ip"] = r.choice(["10.0.0", "10", "010.0.0.1", "0x0a.0.0.9", "10.1", "FD00::1",
                                         "fd00:0:0:0:0:0:0:1", "10.0.0.1 x", "bogus", "10.0.0.300", ""])
        hints = {"build_near_host_ip": r.choice(["10.0.0.1", "10.0.0.0", "10.0.1.200", "fd00::1", "192.168.0.1",
                                                 "10.0.0.300", "bogus", "10.0.0.1/8", "0.0.0.0"])}
        if self.chance(0.8):
            hints["cidr"] = r.choice(["/24", "/0", "/32", "/16", "/8", "/255.255.255.0", "/255.255.0.0",
                                      "/0.0.0.0", "/33", "/-1", "/abc", "24", "", "/64", "/128", "/120",
                                      "/255.0.255.0", "/ 24", "/24 "])
        sc["request"]["scheduler_hints"] = hints
        return sc, "cidr " + json.dumps(hints)

    def area_aies(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, ["AggregateInstanceExtraSpecsFilter"])
        keys = ["ssd", "gpu", "cores", "ver", "name"]
        vals = {"ssd": ["true", "True", "false"], "gpu": ["1", "2", "true"], "cores": ["4", "8", " 16", "4,8"],
                "ver": ["6.2", "7.0", "10"], "name": ["alpha", "beta", "alpha,beta"]}
        for i in range(r.randint(1, 3)):
            md = {k: r.choice(vals[k]) for k in r.sample(keys, r.randint(1, 3))}
            self.agg(sc, "agg-%d" % i, self.some_hosts(sc), md)
        specs = {}
        for k in r.sample(keys, r.randint(1, 2)):
            op = r.choice(["", "s==", "s!=", "<in>", "<or>", "=", ">=", "<=", "==", "!=", "s>=", "<all-in>"])
            if op in ("=", ">=", "<=", "==", "!=") and k not in ("cores", "gpu", "ver"):
                op = "s>="
            v = r.choice(vals[k]).split(",")[0].strip()
            if op == "<or>":
                v = "%s <or> %s" % (v, r.choice(vals[k]))
            spec = ("%s %s" % (op, v)).strip()
            scope = r.choice(["aggregate_instance_extra_specs:", "aggregate_instance_extra_specs:", "", "capabilities:", "other:"])
            specs[scope + k] = spec
        sc["request"]["flavor"]["extra_specs"] = specs
        return sc, "aies " + json.dumps(specs)

    def area_tenant(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, r.sample(["AggregateMultiTenancyIsolation", "AggregateTypeAffinityFilter"], r.randint(1, 2)))
        for i in range(r.randint(1, 3)):
            md = {}
            if self.chance(0.7):
                md["filter_tenant_id"] = r.choice(["proj-a", "proj-b", "proj-a,proj-b", " proj-a ", "", "PROJ-A", "proj-b, proj-a"])
            if self.chance(0.3):
                md["filter_tenant_id2"] = "proj-c"
            if self.chance(0.6):
                md["instance_type"] = r.choice(["m1.small", "m1.large", "m1.small,m1.large", " m1.small", "", "M1.SMALL"])
            self.agg(sc, "agg-%d" % i, self.some_hosts(sc), md)
        sc["request"]["project_id"] = r.choice(["proj-a", "proj-b", "", "proj-c"])
        sc["request"]["flavor"]["name"] = r.choice(["m1.small", "m1.large", "M1.SMALL"])
        return sc, "tenant"

    def area_isolated(self):
        r = self.r
        sc = self.base(2, 8)
        self.filters(sc, ["IsolatedHostsFilter"])
        names = [h["name"] for h in sc["hosts"]]
        sc["config"]["isolated_hosts"] = r.sample(names, min(len(names), r.randint(0, 3))) + (["CMP-000"] if self.chance(0.2) else [])
        sc["config"]["isolated_images"] = r.choice([[], ["img-1"], ["img-2"], ["img-1", "img-2"]])
        if self.chance(0.6):
            sc["config"]["restrict_isolated_hosts_to_isolated_images"] = r.choice([True, False])
        if self.chance(0.3):
            sc["request"]["image"]["id"] = r.choice(["img-2", "IMG-1"])
        if self.chance(0.1):
            sc["request"]["image"] = r.choice([None, {}])
        return sc, "isolated"

    def area_misc(self):
        r = self.r
        sc = self.base(2, 8)
        kind = r.choice(["num0", "equal", "swap", "overrides", "supported", "weighers", "config",
                         "ratio", "numinst", "cells", "resources"])
        if kind == "num0":
            sc["request"]["num_instances"] = 0
        elif kind == "equal":
            proto = dict(sc["hosts"][0])
            sc["hosts"] = [dict(proto, name="cmp-%03d" % i, instances=["e-%d" % i]) for i in range(r.randint(2, 6))]
            sc["config"]["weighers"] = "all"
        elif kind == "swap":
            f = sc["request"]["flavor"]
            f["swap"] = r.choice([0, 512, 4096])
            f["ephemeral_gb"] = r.choice([0, 10, 100])
            f["root_gb"] = r.choice([0, 10, 100])
            sc["request"]["num_instances"] = r.choice([2, 3])
            sc["config"]["weighers"] = ["DiskWeigher"]
        elif kind == "overrides":
            for h in sc["hosts"]:
                if self.chance(0.5):
                    h["free_ram_mb"] = r.choice([-512, 0, 100, 999999])
                if self.chance(0.5):
                    h["free_disk_gb"] = r.choice([-5, 0, 3, 50])
                if self.chance(0.5):
                    h["disk_available_least"] = r.choice([None, -10, 0, 5, 100000])
            sc["config"]["weighers"] = r.choice([["RAMWeigher", "DiskWeigher"], "all"])
            if self.chance(0.5):
                sc["config"]["enabled_filters"] = ["JsonFilter"]
                sc["request"]["scheduler_hints"] = {"query": json.dumps([">=", r.choice(["$free_ram_mb", "$free_disk_mb", "$disk_mb_used"]), r.choice([0, 100, 2048])])}
        elif kind == "supported":
            self.filters(sc, ["ImagePropertiesFilter"])
            sc["request"]["image"]["properties"] = {"hw_architecture": "x86_64"}
            for h in sc["hosts"]:
                h["supported_instances"] = r.choice([[], [["x86_64", "qemu", "hvm"]], [["x86_64", "QEMU", "HVM"]],
                                                     [["x86_64", "kvm", "hvm"], ["x86_64", "kvm", "hvm"]]])
        elif kind == "weighers":
            sc["config"]["weighers"] = r.choice(["all", [], list(reversed(ALL_WEIGHERS)), ["CrossCellWeigher"],
                                                ["PCIWeigher", "PCIWeigher"]])
            for k in r.sample(["ram_weight_multiplier", "cpu_weight_multiplier", "disk_weight_multiplier",
                               "io_ops_weight_multiplier", "build_failure_weight_multiplier",
                               "cross_cell_move_weight_multiplier", "pci_weight_multiplier"], 2):
                sc["config"][k] = r.choice([0.0, -1.0, 2.0, 1e-9, 1e6])
        elif kind == "config":
            k = r.choice(["max_io_ops_per_host", "max_instances_per_host", "host_subset_size", "max_attempts",
                          "pci_weight_multiplier", "soft_affinity_weight_multiplier"])
            sc["config"][k] = r.choice([0, 1, 2, -1])
            sc["config"]["enabled_filters"] = ["IoOpsFilter", "NumInstancesFilter"]
        elif kind == "ratio":
            for h in sc["hosts"]:
                h["cpu_allocation_ratio"] = r.choice([0.0, 0.5, 1.0, 16.0, 1.5])
                h["vcpus_used"] = r.randint(0, 3 * h["vcpus"])
            sc["config"]["weighers"] = ["CPUWeigher"]
        elif kind == "numinst":
            sc["request"]["num_instances"] = r.randint(4, 9)
            sc["config"]["enabled_filters"] = r.sample(["ComputeFilter", "NumInstancesFilter", "IoOpsFilter",
                                                        "JsonFilter", "DifferentHostFilter"], 2)
            sc["config"]["max_io_ops_per_host"] = r.choice([2, 5, 9])
            sc["config"]["max_instances_per_host"] = r.choice([2, 5, 9])
            sc["request"]["scheduler_hints"] = {"query": json.dumps(["<", "$num_instances", 6])}
        elif kind == "cells":
            for h in sc["hosts"]:
                h["cell"] = r.choice(["cell1", "cell2", "cell3"])
            sc["request"]["num_instances"] = r.choice([1, 2, 3])
            sc["config"]["max_attempts"] = r.choice([1, 2, 4, 10])
        elif kind == "resources":
            for h in sc["hosts"]:
                h["memory_mb_used"] = r.choice([0, h["memory_mb"], h["memory_mb"] + 100])
                h["vcpus_used"] = r.choice([0, h["vcpus"] * 5])
            sc["config"]["weighers"] = "all"
        return sc, "misc " + kind

    def area_floats(self):
        """JSON numbers written as floats (2.0) where Nova applies str()."""
        r = self.r
        sc = self.base(2, 6)
        kind = r.choice(["meta", "rules", "cpuinfo", "spec", "image", "hint"])
        if kind == "meta":
            self.filters(sc, ["AggregateInstanceExtraSpecsFilter"])
            self.agg(sc, "agg-0", self.some_hosts(sc), {"cores": r.choice([2.0, 2, 4.5, 1e20, 0.1])})
            sc["request"]["flavor"]["extra_specs"] = {"aggregate_instance_extra_specs:cores": r.choice(["2.0", "2", "s== 2.0", "s== 2", "<in> .", "4.5", "1e+20"])}
        elif kind == "rules":
            self.filters(sc, ["ServerGroupAntiAffinityFilter"])
            inst = [u for h in sc["hosts"] for u in h["instances"]]
            sc["server_groups"] = [{"name": "g", "policy": "anti-affinity", "members": inst[:3],
                                    "rules": {"max_server_per_host": r.choice([2.0, 1.0, 3.0])}}]
            sc["request"]["server_group"] = "g"
        elif kind == "cpuinfo":
            self.filters(sc, ["ComputeCapabilitiesFilter"])
            for h in sc["hosts"]:
                h["cpu_info"] = {"vendor": "Intel", "topology": {"cores": r.choice([2.0, 2, 4.0])}, "mhz": r.choice([2400.0, 2400, 1e3])}
            sc["request"]["flavor"]["extra_specs"] = {r.choice(["capabilities:cpu_info:topology:cores", "capabilities:cpu_info:mhz", "cpu_info", "capabilities:cpu_info:topology"]):
                                                      r.choice(["2.0", "2", "s== 2.0", "<in> 2.0", "<in> 2400.0", "= 2"])}
        elif kind == "spec":
            self.filters(sc, ["ComputeCapabilitiesFilter", "AggregateInstanceExtraSpecsFilter"])
            self.agg(sc, "agg-0", self.some_hosts(sc), {"vcpus_total": "16.0", "x": "1.0"})
            sc["request"]["flavor"]["extra_specs"] = {r.choice(["vcpus_total", "capabilities:vcpus_total", "x"]): r.choice([16.0, 16, 1.0, 1])}
        elif kind == "image":
            self.filters(sc, ["AggregateImagePropertiesIsolation"])
            self.agg(sc, "agg-0", self.some_hosts(sc), {"os_distro": r.choice(["2.0", "2"]), "hw_cpu_cores": r.choice(["2", "2.0"])})
            sc["request"]["image"]["properties"] = {r.choice(["os_distro", "hw_cpu_cores"]): r.choice([2.0, 2, 2.5])}
        else:
            self.filters(sc, ["SameHostFilter", "DifferentHostFilter", "JsonFilter"])
            for h in sc["hosts"]:
                h["instances"] = [r.choice(["1", "1.0", "2"])]
            sc["request"]["scheduler_hints"] = {r.choice(["same_host", "different_host"]): r.choice([1.0, [1.0], 1, [2.0, 1]]),
                                                "query": r.choice([1.0, 0.0, '["=", 1.0, 1]'])}
        return sc, "floats " + kind

    IMG_FIELDS = {
        "hw_boot_menu": [True, "true", "yes", "0", "maybe", 1, 0],
        "hw_cdrom_bus": ["ide", "sata", "scsi", "bogus", "IDE"],
        "hw_cpu_cores": [2, "2", "02", " 3 ", "2.5", 2.5, True, "x"],
        "hw_cpu_policy": ["dedicated", "shared", "mixed", "bogus"],
        "hw_cpu_realtime_mask": ["^0-1", 5],
        "hw_cpu_thread_policy": ["prefer", "isolate", "require", "bogus"],
        "hw_disk_bus": ["virtio", "scsi", "ide", "usb", "lxc", "bogus"],
        "hw_firmware_type": ["uefi", "bios", "bogus"],
        "hw_machine_type": ["pc", "q35", 5, True],
        "hw_mem_page_size": ["large", "2048", 2048],
        "hw_numa_nodes": [1, "2", "x"],
        "hw_numa_mem.0": ["1024", 512, "x"],
        "hw_numa_cpus.0": ["0-1", "0,2", "x"],
        "hw_pointer_model": ["usbtablet", "ps2mouse", "bogus"],
        "hw_qemu_guest_agent": [True, False, "yes", "no", "1", "bogus"],
        "hw_rng_model": ["virtio", "bogus"],
        "hw_scsi_model": ["virtio-scsi", "lsilogic", "bogus"],
        "hw_serial_port_count": [1, "2", "-1"],
        "hw_video_model": ["vga", "virtio", "qxl", "bogus"],
        "hw_video_ram": [64, "128"],
        "hw_vif_model": ["virtio", "e1000", "bogus"],
        "hw_watchdog_action": ["reset", "poweroff", "none", "bogus"],
        "img_config_drive": ["optional", "mandatory", "bogus"],
        "img_signature_hash_method": ["SHA-256", "bogus"],
        "img_version": [1, "2"],
        "img_owner_id": ["abc", 7],
        "os_distro": ["ubuntu", "windows", 7, True],
        "os_secure_boot": ["required", "disabled", "optional", "bogus"],
        "os_type": ["linux", "windows", "bogus"],
        "os_require_quiesce": ["yes", False],
        "vmware_adaptertype": ["ide", "lsiLogic", "bogus", ""],
        "trait:HW_CPU_X86_AVX": ["required", "forbidden"],
        "img_signature_certificate_uuid": ["not-a-uuid", "6ba7b811-9dad-11d1-80b4-00c04fd430c8"],
        "custom_thing": ["x"],
    }

    def area_imgprops(self):
        r = self.r
        sc = self.base(2, 6)
        self.filters(sc, r.sample(["AggregateImagePropertiesIsolation", "ImagePropertiesFilter", "ComputeFilter"], r.randint(1, 2)))
        keys = r.sample(sorted(self.IMG_FIELDS), r.randint(1, 4))
        props = {k: r.choice(self.IMG_FIELDS[k]) for k in keys}
        sc["request"]["image"]["properties"] = props
        for i in range(r.randint(1, 2)):
            md = {}
            for k in r.sample(keys, r.randint(1, len(keys))):
                v = r.choice(self.IMG_FIELDS[k])
                md[k] = v if isinstance(v, str) else r.choice([str(v), v])
            if self.chance(0.3):
                md["hw_scsi_model"] = r.choice(["virtio-scsi", "lsilogic"])
            self.agg(sc, "agg-%d" % i, self.some_hosts(sc), md)
        return sc, "imgprops " + json.dumps(props)

    def area_struct(self):
        """Odd cloud structure: duplicate names, unknown references."""
        r = self.r
        sc = self.base(2, 6)
        kind = r.choice(["unknownagg", "inst2hosts", "dupmember", "nodes", "cpuinfo",
                         "supported", "noimage", "emptyhosts", "aggdup"])
        hs = sc["hosts"]
        if kind == "dupname":
            d = dict(hs[0])
            d["node"] = d["name"] + "-b"
            d["instances"] = ["dup-1"]
            hs.insert(r.randint(0, len(hs)), d)
            sc["config"]["weighers"] = "all"
            sc["request"]["num_instances"] = r.choice([1, 2, 3])
            if self.chance(0.5):
                sc["request"]["force_nodes"] = [d["node"]]
        elif kind == "unknownagg":
            self.filters(sc, ["AvailabilityZoneFilter", "AggregateInstanceExtraSpecsFilter"])
            self.agg(sc, "agg-0", [hs[0]["name"], "ghost", hs[0]["name"].upper()], {"ssd": "true"}, az="az1")
            sc["request"]["availability_zone"] = "az1"
            sc["request"]["flavor"]["extra_specs"] = {"ssd": "true"}
        elif kind == "inst2hosts":
            for h in hs[:2]:
                h["instances"] = h["instances"] + ["shared-1"]
            self.filters(sc, r.sample(["SameHostFilter", "DifferentHostFilter", "ServerGroupAntiAffinityFilter", "ServerGroupAffinityFilter"], 2))
            sc["server_groups"] = [{"name": "g", "policy": r.choice(["affinity", "anti-affinity", "soft-affinity"]), "members": ["shared-1"]}]
            sc["request"]["server_group"] = "g"
            sc["request"]["scheduler_hints"] = {r.choice(["same_host", "different_host"]): "shared-1"}
            sc["request"]["num_instances"] = r.choice([1, 2])
        elif kind == "dupmember":
            inst = [u for h in hs for u in h["instances"]] or ["x"]
            sc["server_groups"] = [{"name": "g", "policy": r.choice(["anti-affinity", "soft-anti-affinity"]),
                                    "members": inst[:2] * 2, "rules": {"max_server_per_host": 2}}]
            sc["request"]["server_group"] = "g"
            self.filters(sc, ["ServerGroupAntiAffinityFilter"])
            sc["config"]["weighers"] = ["ServerGroupSoftAntiAffinityWeigher", "RAMWeigher"]
            sc["request"]["num_instances"] = r.choice([1, 2, 3])
        elif kind == "nodes":
            for h in hs:
                h["node"] = r.choice([h["name"], "node-x", h["name"].upper()])
            sc["request"]["force_nodes"] = r.choice([["node-x"], [hs[0]["node"]], ["NODE-X"]])
            if self.chance(0.5):
                sc["request"]["force_hosts"] = [hs[0]["name"].upper()]
        elif kind == "cpuinfo":
            self.filters(sc, ["ComputeCapabilitiesFilter"])
            for h in hs:
                h["cpu_info"] = r.choice([{"vendor": "Int\u00e9l", "b": 1, "2": 2, "1": 0},
                                          {"vendor": "Intel", "flags": {"x": None}, "n": None, "t": True},
                                          {"vendor": "\u00e9", "features": ["a\"b", "c'd"]}])
            sc["request"]["flavor"]["extra_specs"] = {r.choice(["cpu_info", "capabilities:cpu_info", "capabilities:cpu_info:vendor",
                                                                "capabilities:cpu_info:n", "capabilities:cpu_info:t",
                                                                "capabilities:cpu_info:flags", "capabilities:cpu_info:flags:x",
                                                                "capabilities:cpu_info:features"]):
                                                      r.choice(["<in> \u00e9", "<in> \\u00e9", "<in> 2", "True", "None", "<in> \"",
                                                                "<in> '", "{'x': None}", "s== Int\u00e9l", "<in> true"])}
        elif kind == "supported":
            self.filters(sc, ["ImagePropertiesFilter"])
            for h in hs:
                h["supported_instances"] = r.choice([[["x86_64", "kvm"]], [["x86_64", "kvm", "hvm", "extra"]], [["x86_64", "kvm", "hvm"]]])
            sc["request"]["image"]["properties"] = {"img_hv_type": "kvm"}
        elif kind == "noimage":
            self.filters(sc, ["ImagePropertiesFilter", "AggregateImagePropertiesIsolation", "IsolatedHostsFilter"])
            sc["request"]["image"] = r.choice([None, {}, {"properties": {}}, {"id": "img-9"}])
            sc["config"]["isolated_images"] = r.choice([[], ["img-9"]])
            sc["config"]["isolated_hosts"] = [hs[0]["name"]]
        elif kind == "emptyhosts":
            sc["hosts"] = []
        elif kind == "aggdup":
            self.filters(sc, ["AggregateNumInstancesFilter", "AvailabilityZoneFilter"])
            for i in range(2):
                self.agg(sc, "same", [hs[0]["name"]], {"max_instances_per_host": str(r.randint(1, 9))}, az=r.choice(["az1", "az2"]))
            sc["request"]["availability_zone"] = "az1"
        return sc, "struct " + kind

    def area_config(self):
        r = self.r
        sc = self.base(2, 6)
        c = sc["config"]
        for _ in range(r.randint(1, 3)):
            k = r.choice(["filters", "weighers", "range", "range", "dupfilter", "empty"])
            if k == "filters":
                c["enabled_filters"] = r.sample(ALL_FILTERS, r.randint(0, 4)) + (["NoSuchFilter"] if self.chance(0.3) else [])
            elif k == "weighers":
                c["weighers"] = r.sample(ALL_WEIGHERS, r.randint(0, 4)) + (["NoSuchWeigher"] if self.chance(0.3) else [])
            elif k == "range":
                opt = r.choice(["host_subset_size", "max_attempts", "max_instances_per_host", "max_io_ops_per_host",
                                "pci_weight_multiplier", "soft_affinity_weight_multiplier",
                                "soft_anti_affinity_weight_multiplier", "metrics_weight_of_unavailable",
                                "build_failure_weight_multiplier", "ram_weight_multiplier"])
                c[opt] = r.choice([-2, -1, -0.5, 0, 0.5, 1, 2, 100, 2.5, 3.9, "3", " 2 ", "2.0", "x", True, 1e2])
            elif k == "dupfilter":
                c["enabled_filters"] = ["ComputeFilter", "NumInstancesFilter", "ComputeFilter", "IoOpsFilter"]
                c["max_io_ops_per_host"] = r.choice([0, 3])
            else:
                c["enabled_filters"] = []
        sc["request"]["num_instances"] = r.choice([1, 2, 3])
        return sc, "config " + json.dumps(c)

    def area_multi(self):
        """Several instances: consumption, per-index filters, alternates."""
        r = self.r
        sc = self.base(2, 10)
        sc["request"]["num_instances"] = r.randint(2, 7)
        sc["request"]["flavor"].update({"vcpus": r.choice([1, 4, 8]), "memory_mb": r.choice([1024, 4096, 16384]),
                                        "root_gb": r.choice([0, 20, 80]), "ephemeral_gb": r.choice([0, 10])})
        pool = ["JsonFilter", "IoOpsFilter", "NumInstancesFilter", "AggregateIoOpsFilter", "AggregateNumInstancesFilter",
                "ServerGroupAffinityFilter", "ServerGroupAntiAffinityFilter", "MetricsFilter", "ComputeFilter",
                "DifferentHostFilter", "SameHostFilter"]
        self.filters(sc, r.sample(pool, r.randint(1, 5)), 0)
        sc["config"]["weighers"] = r.choice(["all", ["RAMWeigher", "IoOpsWeigher"], ["DiskWeigher"], ["CPUWeigher", "RAMWeigher"]])
        sc["config"]["max_attempts"] = r.choice([1, 2, 3, 5, 8])
        sc["config"]["max_io_ops_per_host"] = r.choice([2, 4, 8, 10])
        sc["config"]["max_instances_per_host"] = r.choice([3, 6, 10])
        for h in sc["hosts"]:
            h["cell"] = r.choice(["cell1", "cell1", "cell2"])
        sc["request"]["scheduler_hints"] = {"query": json.dumps(r.choice([
            [">=", "$free_ram_mb", 4096], [">", "$free_disk_mb", 20480], ["<", "$num_io_ops", 5],
            ["<", "$num_instances", 5], [">=", "$vcpus_total", "$vcpus_used"], ["<", "$vcpus_used", 10],
            ["or", ["<", "$num_instances", 3], [">", "$free_ram_mb", 30000]]]))}
        if self.chance(0.5):
            inst = [u for h in sc["hosts"] for u in h["instances"]]
            sc["server_groups"] = [{"name": "g", "policy": r.choice(["affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"]),
                                    "members": r.sample(inst, min(len(inst), r.randint(0, 3)))}]
            if self.chance(0.4):
                sc["server_groups"][0]["rules"] = {"max_server_per_host": r.choice([1, 2, 3])}
            sc["request"]["server_group"] = "g"
        if self.chance(0.4):
            self.agg(sc, "agg-0", self.some_hosts(sc), {r.choice(["ram_weight_multiplier", "max_io_ops_per_host",
                                                                  "max_instances_per_host", "io_ops_weight_multiplier"]):
                                                        r.choice(["2", "-1", "3", "0.5"])})
        return sc, "multi"


AREAS = ["caps", "json", "image", "aiso", "metrics", "aggmult", "aggmax", "az",
         "sg", "hints", "force", "cidr", "aies", "tenant", "isolated", "misc",
         "floats", "imgprops", "struct", "config", "multi"]
WEIGHTS = {"caps": 14, "json": 16, "image": 10, "aiso": 7, "metrics": 8,
           "aggmult": 6, "aggmax": 5, "az": 5, "sg": 7, "hints": 5,
           "force": 5, "cidr": 6, "aies": 5, "tenant": 4, "isolated": 3,
           "misc": 10, "floats": 5, "imgprops": 8, "struct": 8, "config": 4, "multi": 10}


MUTANT_VALUES = [None, "", "x", "3", 0, 1, -1, 2.5, True, False, [], ["a"], {}, {"a": 1}, [1, 2], "1.0", [[1]]]


def mutate_types(sc, r):
    """Replace 1-2 random values with a value of another JSON type."""
    def paths(o, pre=()):
        out = [pre] if pre else []
        if isinstance(o, dict):
            for k, v in o.items():
                out += paths(v, pre + (k,))
        elif isinstance(o, list):
            for i, v in enumerate(o[:3]):
                out += paths(v, pre + (i,))
        return out
    for _ in range(r.randint(1, 2)):
        p = r.choice(paths(sc))
        o = sc
        for k in p[:-1]:
            o = o[k]
        o[p[-1]] = json.loads(json.dumps(r.choice(MUTANT_VALUES)))
    return sc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--areas", default="")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--mutate-types", action="store_true",
                    help="robustness mode: also put values of the wrong JSON type into "
                         "1-2 random places (the engine must not crash; exact agreement "
                         "is not expected, see lib/scheduler/conformance/README.md)")
    a = ap.parse_args()
    areas = [x for x in a.areas.split(",") if x] or AREAS
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.start, a.start + a.count):
        rng = random.Random("%d-%d" % (a.seed, i))
        area = rng.choices(areas, weights=[WEIGHTS[x] for x in areas], k=1)[0]
        gen = Adv(rng)
        sc, what = getattr(gen, "area_" + area)()
        if a.mutate_types:
            sc = mutate_types(sc, rng)
        name = "adv-%s-%d-%04d" % (area, a.seed, i)
        with open(os.path.join(a.out, name + ".scenario.json"), "w") as f:
            f.write(dump(sc) + "\n")
        if a.list:
            print("%s\t%s\t%s" % (name, area, what))


if __name__ == "__main__":
    sys.exit(main())
