#!/usr/bin/env python3
"""Hand-made scenarios, one per surprising Nova behaviour (see lib/scheduler/conformance/README.md).

usage: quirks.py --out DIR        writes DIR/q-<name>.scenario.json
       quirks.py --list           prints name: description

Each scenario is a 3-host cloud (h1, h2, h3) plus one small change; the
expected result from nova_reference.py is what documents the quirk.
"""
import argparse
import copy
import json
import os
import sys

H1 = {"name": "h1", "vcpus": 32, "vcpus_used": 4, "memory_mb": 65536,
      "memory_mb_used": 8192, "local_gb": 1000, "local_gb_used": 100,
      "hypervisor_type": "QEMU", "hypervisor_version": 6002000,
      "host_ip": "10.0.0.5", "supported_instances": [["x86_64", "kvm", "hvm"]],
      "cpu_info": {"arch": "x86_64", "vendor": "Intel",
                   "features": ["avx2", "aes"]},
      "num_instances": 3, "num_io_ops": 1, "instances": ["i-1"],
      "metrics": [{"name": "cpu.percent", "value": 0.29}]}
H2 = {"name": "h2", "vcpus": 64, "vcpus_used": 70, "memory_mb": 131072,
      "memory_mb_used": 140000, "local_gb": 2000, "local_gb_used": 100,
      "hypervisor_type": "ironic", "hypervisor_version": 8000000,
      "host_ip": "10.0.1.5", "supported_instances": [],
      "cpu_info": {"arch": "x86_64", "vendor": "AMD", "features": ["avx"]},
      "num_instances": 10, "num_io_ops": 5, "instances": ["i-2"],
      "metrics": [{"name": "cpu.frequency", "value": 2.9}]}
H3 = {"name": "h3", "vcpus": 16, "vcpus_used": 0, "memory_mb": 32768,
      "memory_mb_used": 0, "local_gb": 500, "local_gb_used": 0,
      "hypervisor_type": "VMware vCenter Server",
      "hypervisor_version": 7001000, "host_ip": "10.0.0.200",
      "supported_instances": [["aarch64", "qemu", "hvm"]],
      "cpu_info": {"arch": "aarch64", "vendor": "ARM", "features": []},
      "num_instances": 0, "num_io_ops": 0, "instances": []}

BASE = {
    "config": {"enabled_filters": [], "weighers": ["RAMWeigher"],
               "max_attempts": 3},
    "hosts": [H1, H2, H3],
    "aggregates": [],
    "server_groups": [],
    "request": {"flavor": {"name": "m1.small", "vcpus": 2, "memory_mb": 2048,
                           "root_gb": 20, "extra_specs": {}},
                "image": {"id": "img-1", "properties": {}},
                "num_instances": 1, "project_id": "proj-a"},
}

Q = {}
GROUP_UUID = "11111111-1111-1111-1111-111111111111"


def quirk(name, doc):
    def deco(fn):
        Q[name] = (doc, fn)
        return fn
    return deco


def filters(s, *names):
    s["config"]["enabled_filters"] = list(names)


def specs(s, d, flt="ComputeCapabilitiesFilter"):
    filters(s, flt)
    s["request"]["flavor"]["extra_specs"] = d


def query(s, q, raw=False, n=1):
    filters(s, "JsonFilter")
    s["request"]["scheduler_hints"] = {"query": q if raw else json.dumps(q)}
    s["request"]["num_instances"] = n


def agg(s, md, hosts=("h1", "h2"), az=None, name="a1"):
    a = {"name": name, "hosts": list(hosts), "metadata": md}
    if az:
        a["availability_zone"] = az
    s["aggregates"].append(a)


def az_request(s, requested, zones="az1"):
    """h1 and h2 in an aggregate of availability zone(s) `zones`; the request asks for `requested`."""
    agg(s, {}, az=zones)
    s["request"]["availability_zone"] = requested
    filters(s, "AvailabilityZoneFilter")


def server_group(s, policy, members, rules=None):
    """The one server group "g" (a fixed uuid), with the given policy, members and rules."""
    g = {"uuid": GROUP_UUID, "name": "g", "policy": policy}
    if rules is not None:
        g["rules"] = rules
    g["members"] = members
    s["server_groups"] = [g]


def image_props(s, props):
    s["request"]["image"]["properties"] = props


def metric_values(s):
    s["hosts"][0]["metrics"] = [{"name": "cpu.percent", "value": 0.29},
                                {"name": "cpu.frequency", "value": 2.97},
                                {"name": "cpu.user.time", "value": 1234.5}]
    s["hosts"][1]["metrics"] = [{"name": "cpu.percent", "value": 0.57},
                                {"name": "cpu.frequency", "value": -1.5},
                                {"name": "cpu.user.time", "value": 99.9}]
    s["hosts"][2]["metrics"] = [{"name": "cpu.percent", "value": 1.15},
                                {"name": "cpu.frequency", "value": 3},
                                {"name": "cpu.user.time", "value": 0}]


def metrics_cfg(s, setting, required=True, weighers=("MetricsWeigher",)):
    s["config"].update({"metrics_weight_setting": setting,
                        "metrics_required": required,
                        "weighers": list(weighers)})


# ---------------------------------------------------------------- metrics
@quirk("metric-percent-x100-trunc",
       "*.percent metrics are stored x100 as int: 0.29 -> 28 (float "
       "0.29*100=28.999.. truncated), 0.57 -> 56, 1.15 -> 114")
def _(s):
    metric_values(s)
    metrics_cfg(s, "cpu.percent=1.0")


@quirk("metric-other-int-trunc",
       "other metrics are int()-truncated toward zero: 2.97 -> 2, -1.5 -> -1")
def _(s):
    metric_values(s)
    metrics_cfg(s, "cpu.frequency=1.0")


@quirk("metric-dup-setting-summed",
       "a metric named twice in weight_setting counts twice (1.0 + 2.0)")
def _(s):
    metric_values(s)
    metrics_cfg(s, "cpu.percent=1.0, cpu.percent=2.0")


@quirk("metric-bad-setting-dropped",
       "weight_setting entries that do not parse (cpu.percent=abc) are "
       "silently dropped")
def _(s):
    metric_values(s)
    metrics_cfg(s, "cpu.percent=abc, cpu.frequency=1")


@quirk("metric-setting-space-in-key",
       "'cpu.percent = 1.0' -> key 'cpu.percent ' (not stripped): "
       "MetricsFilter rejects every host")
def _(s):
    metric_values(s)
    metrics_cfg(s, "cpu.percent = 1.0")
    filters(s, "MetricsFilter")


@quirk("metric-required-missing",
       "metrics_required + a weighed host without the metric -> "
       "ComputeHostMetricNotFound for the whole request")
def _(s):
    metrics_cfg(s, "cpu.percent=1.0")


@quirk("metric-required-single-host",
       "one survivor is never weighed, so a missing required metric raises "
       "nothing")
def _(s):
    metrics_cfg(s, "cpu.frequency=1.0")
    s["hosts"] = s["hosts"][:1]


@quirk("metric-not-required-unavailable",
       "metrics_required=false: a host missing the metric gets raw "
       "weight_of_unavailable (-10000), then normal min/max normalization")
def _(s):
    metrics_cfg(s, "cpu.percent=1.0", required=False)


@quirk("metric-unavailable-multiplier-zero",
       "...but if ratio * (per-host) multiplier == 0 the missing metric is "
       "simply skipped (raw 0.0), here via aggregate metrics_weight_multiplier=0")
def _(s):
    metrics_cfg(s, "cpu.percent=1.0", required=False)
    agg(s, {"metrics_weight_multiplier": "0"}, hosts=("h2", "h3"))


@quirk("metric-bad-name",
       "a host metric name outside MonitorMetricType -> ValueError")
def _(s):
    s["hosts"][0]["metrics"] = [{"name": "cpu.bogus", "value": 1}]


# ------------------------------------------------ ComputeCapabilitiesFilter
# one flavor extra spec set each, under ComputeCapabilitiesFilter
for _name, _doc, _value in [
    ("caps-list-substring",
     "capabilities values are str()-ed Python objects: '<in> avx' matches "
     "\"['avx2', 'aes']\" (substring)",
     {"capabilities:cpu_info:features": "<in> avx"}),
    ("caps-list-quoted",
     "'<in> 'avx'' matches only a host whose str(list) has 'avx' quoted",
     {"capabilities:cpu_info:features": "<in> 'avx'"}),
    ("caps-list-equals-repr",
     "plain value '[]' equals str([]) of an empty features list",
     {"capabilities:cpu_info:features": "[]"}),
    ("caps-all-in-substring",
     "'<all-in> avx aes' = every word is a substring of str(list)",
     {"capabilities:cpu_info:features": "<all-in> avx aes"}),
    ("caps-eq-means-ge",
     "'= N' is float(value) >= N, not equality",
     {"capabilities:hypervisor_version": "= 7001000"}),
    ("caps-float-valueerror",
     "numeric operator on a non-numeric capability -> ValueError "
     "(whole request fails)",
     {"capabilities:cpu_info:vendor": "= 5"}),
    ("caps-or-alone-indexerror",
     "'<or>' with nothing after it -> IndexError (pop from empty list)",
     {"capabilities:cpu_info:vendor": "<or>"}),
    ("caps-or-every-other-word",
     "'<or> Intel AMD': words after the first are taken in pairs "
     "(keyword, value) so AMD is skipped as a keyword",
     {"capabilities:cpu_info:vendor": "<or> Intel AMD"}),
    ("caps-or-trailing",
     "'<or> AMD <or>' is fine: matches AMD",
     {"capabilities:cpu_info:vendor": "<or> AMD <or>"}),
    ("caps-op-without-operand",
     "'>=' alone -> match() returns False -> every host rejected",
     {"capabilities:cpu_info:vendor": ">="}),
    ("caps-string-ops-lexicographic",
     "'s< 7' compares strings: '6002000' < '7' but '7001000' is not",
     {"capabilities:hypervisor_version": "s< 7"}),
    ("caps-unscoped-hoststate-attr",
     "unscoped key that is a HostState attribute (free_ram_mb) is checked "
     "like capabilities:free_ram_mb",
     {"free_ram_mb": ">= 40000"}),
    ("caps-unscoped-stats-key",
     "unscoped key found in host stats (io_workload) is checked too; "
     "its value is the stats string",
     {"io_workload": "<= 1"}),
    ("caps-unscoped-unknown-ignored",
     "unscoped key that is neither attribute nor stat is ignored",
     {"nonexistent": "x"}),
    ("caps-scoped-unknown-rejects",
     "capabilities:<unknown> -> None -> host rejected",
     {"capabilities:nonexistent": "x"}),
    ("caps-service-not-a-dict",
     "capabilities:service:disabled fails for every host (service is a "
     "ReadOnlyDict, not a dict, so the nested lookup returns None)",
     {"capabilities:service:disabled": "False"}),
    ("caps-zero-is-not-none",
     "capabilities:failed_builds = 0 is found (only None means missing)",
     {"capabilities:failed_builds": "0"}),
    ("caps-or-numbers",
     "'<or>' compares strings exactly: hypervisor_version 6002000 or 8000000",
     {"capabilities:hypervisor_version": "<or> 6002000 <or> 8000000"}),
    ("caps-string-le-gt",
     "s<= / s> / s>= are plain Python string comparisons of str(value)",
     {"capabilities:cpu_info:vendor": "s<= Intel",
     "capabilities:hypervisor_type": "s> Q",
     "capabilities:host_ip": "s>= 10.0.0.3"}),
]:
    quirk(_name, _doc)(lambda s, v=_value: specs(s, v))


@quirk("caps-nested-cpu-info",
       "capabilities:cpu_info:topology:sockets walks nested dicts of the "
       "cpu_info JSON; missing levels reject")
def _(s):
    s["hosts"][0]["cpu_info"] = {"vendor": "Intel", "features": ["a"],
                                 "topology": {"sockets": 2}}
    specs(s, {"capabilities:cpu_info:topology:sockets": ">= 2",
              "capabilities:cpu_info:topology": "<in> sockets"})


# ------------------------------------------------ AggregateInstanceExtraSpecs
@quirk("aies-unscoped-key-checked",
       "AggregateInstanceExtraSpecsFilter treats unscoped keys (free_ram_mb) as "
       "aggregate metadata keys -> hosts without such metadata are rejected")
def _(s):
    agg(s, {"ssd": "true"})
    specs(s, {"free_ram_mb": ">= 1"}, flt="AggregateInstanceExtraSpecsFilter")


@quirk("aies-other-namespaces-ignored",
       "keys in other namespaces (hw:, capabilities:) are skipped")
def _(s):
    agg(s, {"ssd": "true"})
    specs(s, {"hw:cpu_policy": "dedicated", "capabilities:x": "1"},
          flt="AggregateInstanceExtraSpecsFilter")


@quirk("aies-comma-split",
       "aggregate metadata values are split on ',' and stripped: "
       "'true, false' matches 'false'")
def _(s):
    agg(s, {"ssd": "true, false"})
    specs(s, {"aggregate_instance_extra_specs:ssd": "false"},
          flt="AggregateInstanceExtraSpecsFilter")


@quirk("aies-valueerror",
       "'= 3' against metadata 'abc' -> ValueError")
def _(s):
    agg(s, {"n": "abc"})
    specs(s, {"aggregate_instance_extra_specs:n": "= 3"},
          flt="AggregateInstanceExtraSpecsFilter")


# ------------------------------------------------------- other agg filters
@quirk("tenant-empty-rejects",
       "filter_tenant_id '' is a present (empty-string) value: rejects every "
       "project")
def _(s):
    agg(s, {"filter_tenant_id": ""})
    filters(s, "AggregateMultiTenancyIsolation")


@quirk("tenant-spaces",
       "filter_tenant_id 'proj-b, proj-a' is split and stripped")
def _(s):
    agg(s, {"filter_tenant_id": "proj-b, proj-a"})
    filters(s, "AggregateMultiTenancyIsolation")


@quirk("type-affinity-empty-rejects",
       "instance_type '' rejects every flavor")
def _(s):
    agg(s, {"instance_type": ""})
    filters(s, "AggregateTypeAffinityFilter")


@quirk("agg-num-instances-bad-value",
       "max_instances_per_host '4.5' (int() fails) -> falls back to config; "
       "' 4 ' would parse")
def _(s):
    agg(s, {"max_instances_per_host": "4.5"}, hosts=("h1",))
    agg(s, {"max_instances_per_host": " 4 "}, hosts=("h2",), name="a2")
    s["config"]["max_instances_per_host"] = 5
    filters(s, "AggregateNumInstancesFilter")


@quirk("agg-multiplier-one-bad-among-two",
       "two aggregates give '2' and 'x' -> the whole set fails to parse -> "
       "config multiplier (not min of the good ones)")
def _(s):
    agg(s, {"ram_weight_multiplier": "2"}, hosts=("h1",))
    agg(s, {"ram_weight_multiplier": "x"}, hosts=("h1",), name="a2")


@quirk("agg-multiplier-min",
       "several aggregates: the minimum multiplier wins")
def _(s):
    agg(s, {"ram_weight_multiplier": "2"}, hosts=("h1",))
    agg(s, {"ram_weight_multiplier": "-5"}, hosts=("h1",), name="a2")


@quirk("agg-multiplier-python-float",
       "multipliers parse with Python float(): ' -2.0 ', '1e3', '+4', '1_000' "
       "parse; '0x10', '', '1,5' do not")
def _(s):
    agg(s, {"ram_weight_multiplier": "1_000"}, hosts=("h1",))
    agg(s, {"ram_weight_multiplier": "0x10"}, hosts=("h2",), name="a2")
    agg(s, {"ram_weight_multiplier": " -2.0 "}, hosts=("h3",), name="a3")


@quirk("az-comma-list",
       "availability_zone metadata 'az1, az2' is split and stripped")
def _(s):
    az_request(s, "az2", zones="az1, az2")


@quirk("az-default-zone",
       "hosts in no AZ aggregate are in default_availability_zone ('nova' "
       "unless configured)")
def _(s):
    az_request(s, "zz")
    s["config"]["default_availability_zone"] = "zz"


@quirk("az-empty-string",
       "availability_zone '' counts as no AZ requested")
def _(s):
    az_request(s, "")


# --------------------------------------------------------------- JsonFilter
# one JsonFilter query each
for _name, _doc, _value in [
    ("json-not-inside-and",
     "'not' returns a list; inside 'and' a non-empty list is truthy -> "
     "['and', ['not', X]] passes every host",
     ["and", ["not", ["=", "$host", "h1"]]]),
    ("json-not-several-args",
     "['not', A, B] at top level is any(not A, not B)",
     ["not", ["=", "$host", "h1"], ["=", "$host", "h2"]]),
    ("json-cpu-info-is-a-string",
     "$cpu_info.vendor -> AttributeError ('str' object has no attribute "
     "'get'): cpu_info is a JSON string",
     ["=", "$cpu_info.vendor", "Intel"]),
    ("json-type-error",
     "['>', '$host', 5] -> TypeError (str vs int)",
     [">", "$host", 5]),
    ("json-unknown-op",
     "unknown operator -> KeyError",
     ["~", "$host", "h"]),
    ("json-nested-list-is-a-query",
     "a list argument is evaluated as a sub-query: ['in', '$host', "
     "['h1','h2']] -> KeyError 'h1'",
     ["in", "$host", ["h1", "h2"]]),
    ("json-stats-are-strings",
     "$stats.* values are strings ('1'), so comparing with a number raises "
     "TypeError but with a string works",
     ["=", "$stats.io_workload", "1"]),
    ("json-missing-var-dropped",
     "$nonexistent (None) is dropped from the args -> fewer than 2 args -> "
     "False",
     ["=", "$nonexistent", 1]),
    ("json-empty-or", "['or'] -> any([]) -> False: all rejected",
     ["or"]),
    ("json-empty-and", "['and'] -> all([]) -> True: all pass",
     ["and"]),
]:
    quirk(_name, _doc)(lambda s, v=_value: query(s, v))


@quirk("json-invalid", "query that is not JSON -> JSONDecodeError")
def _(s):
    query(s, "[\">=\" 5]", raw=True)


@quirk("json-object-query", "query '{}' is falsy -> every host passes")
def _(s):
    query(s, "{}", raw=True)


@quirk("json-per-instance",
       "JsonFilter runs for every instance and sees consumed RAM: 3rd "
       "instance moves to h3; alternates are re-filtered after the last "
       "consumption and come out empty")
def _(s):
    query(s, [">=", "$free_ram_mb", 30000], n=3)
    s["request"]["flavor"]["memory_mb"] = 20000


# ----------------------------------------------------------------- weighers
@quirk("ram-minval-clamp",
       "RAM/CPU/Disk/IoOps weighers have minval=0: negative raw (h2 free RAM "
       "-8928) is reported as 0 and normalization is value/max, not "
       "(v-min)/(max-min)")
def _(s):
    s["config"]["weighers"] = ["RAMWeigher", "CPUWeigher", "DiskWeigher"]


@quirk("cpu-ratio-zero",
       "cpu_allocation_ratio 0.0 is used as is (vcpus*0 - used < 0 -> 0)")
def _(s):
    s["hosts"][0]["cpu_allocation_ratio"] = 0.0
    s["config"]["weighers"] = ["CPUWeigher"]


@quirk("disk-available-least",
       "free_disk_mb = min(disk_available_least, free_disk_gb) * 1024; "
       "negative clamps to 0 in DiskWeigher")
def _(s):
    s["hosts"][0]["disk_available_least"] = 10
    s["hosts"][1]["disk_available_least"] = -5
    s["config"]["weighers"] = ["DiskWeigher"]


@quirk("weighers-all-order",
       "'all' = Nova's discovery order (CrossCell, Metrics, CPU, BuildFailure, "
       "SoftAffinity, SoftAntiAffinity, RAM, Disk, PCI, IoOps); "
       "BuildFailureWeigher reports multiplier -1e6; PCIWeigher raw 100")
def _(s):
    s["config"]["weighers"] = "all"
    s["hosts"][1]["failed_builds"] = 2


@quirk("ties-stable",
       "equal weights keep the input order (stable sort), names not sorted")
def _(s):
    for h in s["hosts"]:
        h.update({"memory_mb": 65536, "memory_mb_used": 0})
    s["hosts"] = [s["hosts"][2], s["hosts"][0], s["hosts"][1]]
    s["request"]["num_instances"] = 2


# -------------------------------------------------------------- groups etc
@quirk("anti-affinity-multi-same-host",
       "anti-affinity with num_instances>1: the request's instances are "
       "members (nova-api adds them), so each lands on a host of its own")
def _(s):
    server_group(s, "anti-affinity", ["i-1"])
    s["request"]["server_group"] = "g"
    s["request"]["num_instances"] = 3
    filters(s, "ServerGroupAntiAffinityFilter")


@quirk("anti-affinity-max-server-per-host",
       "rules max_server_per_host=2: a host with 1 member still passes")
def _(s):
    server_group(s, "anti-affinity", ["i-1"], rules={"max_server_per_host": 2})
    s["request"]["server_group"] = GROUP_UUID
    filters(s, "ServerGroupAntiAffinityFilter")


@quirk("affinity-empty-group-no-alternates",
       "affinity with no members: index 0 free choice, then the group's "
       "hosts pin the rest; alternates are empty (only the chosen host "
       "survives re-filtering)")
def _(s):
    server_group(s, "affinity", [])
    s["request"]["server_group"] = "g"
    s["request"]["num_instances"] = 3
    filters(s, "ServerGroupAffinityFilter")


@quirk("soft-anti-affinity-multi",
       "soft-anti-affinity weigher counts the request's own placed instances "
       "as members; raw is -members (no minval)")
def _(s):
    server_group(s, "soft-anti-affinity", ["i-1"])
    s["request"]["server_group"] = "g"
    s["request"]["num_instances"] = 3
    s["config"]["weighers"] = ["ServerGroupSoftAntiAffinityWeigher"]


@quirk("soft-affinity-weigher-agg-multiplier",
       "soft-affinity raw = number of group members on the host; the "
       "multiplier can come from aggregate metadata (min over aggregates)")
def _(s):
    s["hosts"][1]["instances"] = ["i-2", "i-3"]
    server_group(s, "soft-affinity", ["i-1", "i-2", "i-3"])
    s["request"]["server_group"] = "g"
    s["request"]["num_instances"] = 2
    s["config"]["weighers"] = ["ServerGroupSoftAffinityWeigher", "RAMWeigher"]
    agg(s, {"soft_affinity_weight_multiplier": "0.25"}, hosts=("h2",))


@quirk("anti-affinity-max-server-reached",
       "max_server_per_host=2 with two members on h2: h2 rejected, h1 (one "
       "member) passes")
def _(s):
    s["hosts"][1]["instances"] = ["i-2", "i-3"]
    server_group(s, "anti-affinity", ["i-1", "i-2", "i-3"], rules={"max_server_per_host": 2})
    s["request"]["server_group"] = "g"
    filters(s, "ServerGroupAntiAffinityFilter")


@quirk("force-hosts-skip-filters",
       "force_hosts is case-insensitive and skips every filter (empty funnel)")
def _(s):
    s["hosts"][0]["service"] = {"disabled": True}
    s["request"]["force_hosts"] = ["H1", "h3"]
    filters(s, "ComputeFilter")


@quirk("force-nodes-case-sensitive",
       "force_nodes matches node names exactly")
def _(s):
    s["request"]["force_nodes"] = ["H2", "h3"]
    filters(s, "ComputeFilter")


@quirk("ignore-hosts-case-insensitive",
       "ignore_hosts drops hosts case-insensitively before the filters "
       "(not shown in the funnel)")
def _(s):
    s["request"]["ignore_hosts"] = ["H1"]
    filters(s, "ComputeFilter")


@quirk("io-ops-consumed",
       "each chosen instance adds one I/O op: IoOpsFilter rejects h1 at "
       "index 1")
def _(s):
    s["request"]["num_instances"] = 3
    s["config"]["max_io_ops_per_host"] = 2
    filters(s, "IoOpsFilter")


@quirk("alternates-same-cell",
       "alternates only from the chosen host's cell")
def _(s):
    s["hosts"][0]["cell"] = "cellA"
    s["hosts"][1]["cell"] = "cellB"
    s["hosts"][2]["cell"] = "cellA"
    s["request"]["num_instances"] = 2
    s["config"]["max_attempts"] = 4


# ------------------------------------------------------------------ images
@quirk("image-arch-alias", "hw_architecture 'AMD64' canonicalizes to x86_64")
def _(s):
    image_props(s, {"hw_architecture": "AMD64"})
    filters(s, "ImagePropertiesFilter")


@quirk("image-arch-invalid",
       "hw_architecture 'arm64' is not a Nova architecture -> ValueError")
def _(s):
    image_props(s, {"hw_architecture": "arm64"})


@quirk("image-hv-type-case",
       "img_hv_type 'QEMU' canonicalizes to 'qemu'; 'xapi' -> 'xen'")
def _(s):
    image_props(s, {"img_hv_type": "QEMU"})
    filters(s, "ImagePropertiesFilter")


@quirk("image-vm-mode-alias", "hw_vm_mode 'hv'/'baremetal' -> hvm, 'pv' -> xen")
def _(s):
    image_props(s, {"hw_vm_mode": "hv"})
    filters(s, "ImagePropertiesFilter")


@quirk("image-legacy-names",
       "legacy property names: architecture -> hw_architecture, "
       "hypervisor_type -> img_hv_type, vm_mode -> hw_vm_mode")
def _(s):
    image_props(s, {"architecture": "aarch64"})
    filters(s, "ImagePropertiesFilter")


@quirk("image-version-predicate-invalid",
       "img_hv_requested_version '>=99' (no minor) -> ValueError")
def _(s):
    image_props(s, {"img_hv_requested_version": ">=99"})


@quirk("image-version-predicate-range",
       "img_hv_requested_version '>=6.0,<8.0' vs 6002000 -> '6.2.0'")
def _(s):
    image_props(s, {
        "hw_architecture": "x86_64", "img_hv_requested_version": ">=6.0,<8.0"})
    s["hosts"][1]["supported_instances"] = [["x86_64", "kvm", "hvm"]]
    filters(s, "ImagePropertiesFilter")


@quirk("aii-legacy-key-ignored",
       "AggregateImagePropertiesIsolation: aggregate key 'hypervisor_type' is "
       "not an image field -> ignored")
def _(s):
    agg(s, {"hypervisor_type": "QEMU"})
    image_props(s, {"hypervisor_type": "xen"})
    filters(s, "AggregateImagePropertiesIsolation")


@quirk("aii-canonical-value",
       "the image value compared is the canonical one: img_hv_type 'qemu' "
       "does not match aggregate 'QEMU'")
def _(s):
    agg(s, {"img_hv_type": "QEMU"})
    image_props(s, {"img_hv_type": "qemu"})
    filters(s, "AggregateImagePropertiesIsolation")


@quirk("aii-bool-str",
       "boolean image props compare as str(True) == 'True' (yes -> True)")
def _(s):
    agg(s, {"hw_qemu_guest_agent": "True"}, hosts=("h1",))
    agg(s, {"hw_qemu_guest_agent": "true"}, hosts=("h2",), name="a2")
    image_props(s, {"hw_qemu_guest_agent": "yes"})
    filters(s, "AggregateImagePropertiesIsolation")


@quirk("aii-namespace",
       "namespace 'os' + separator '_' only checks keys starting 'os_'")
def _(s):
    agg(s, {"os_distro": "windows", "hw_architecture": "aarch64"})
    image_props(s, {"os_distro": "rhel",
                                           "hw_architecture": "x86_64"})
    s["config"]["aggregate_image_properties_isolation_namespace"] = "os"
    s["config"]["aggregate_image_properties_isolation_separator"] = "_"
    filters(s, "AggregateImagePropertiesIsolation")


# ------------------------------------------------------------------- misc
@quirk("isolated-no-images-restrict",
       "isolated_images empty + restrict=true: isolated hosts rejected")
def _(s):
    s["config"].update({"isolated_hosts": ["h1"], "isolated_images": [],
                        "restrict_isolated_hosts_to_isolated_images": True})
    filters(s, "IsolatedHostsFilter")


@quirk("cidr-default-24", "build_near_host_ip without cidr uses /24")
def _(s):
    s["request"]["scheduler_hints"] = {"build_near_host_ip": "10.0.0.77"}
    filters(s, "SimpleCIDRAffinityFilter")


@quirk("cidr-no-slash",
       "cidr '16' is string-concatenated: '10.0.0.7716' -> AddrFormatError")
def _(s):
    s["request"]["scheduler_hints"] = {"build_near_host_ip": "10.0.0.77",
                                       "cidr": "16"}
    filters(s, "SimpleCIDRAffinityFilter")


@quirk("config-negative-soft-multiplier",
       "soft_affinity_weight_multiplier < 0 is refused by oslo.config -> "
       "ValueError")
def _(s):
    s["config"]["soft_affinity_weight_multiplier"] = -1.0


@quirk("num-instances-zero",
       "num_instances 0 -> no requests, no selections, error null")
def _(s):
    s["request"]["num_instances"] = 0


def build(name):
    doc, fn = Q[name]
    s = copy.deepcopy(BASE)
    fn(s)
    return s


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out")
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args()
    if a.list or not a.out:
        for name, (doc, _) in Q.items():
            print("q-%s: %s" % (name, doc))
        return 0
    os.makedirs(a.out, exist_ok=True)
    sys.dont_write_bytecode = True
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from common import write_if_changed
    for name in Q:
        write_if_changed(os.path.join(a.out, "q-%s.scenario.json" % name),
                         json.dumps(build(name), indent=1) + "\n")
    print("wrote %d quirk scenarios" % len(Q))
    return 0


if __name__ == "__main__":
    sys.exit(main())
