#!/usr/bin/env python3
"""Seeded random scenarios for a later Nova release (stdlib only).

usage: generate-releases.py --release 2025.1 --seed N --count K --out DIR
                            [--prefix r2025.1-] [--start I] [--list]

Scenario i depends only on (release, seed, i). Each starts from one of the
other generators' scenarios (generate.py's plain ones, generate-numa.py's
NUMA/PCI ones, placement-gen.py's Placement ones; hosts keep one node each)
and gets `config.nova_release` plus 2-5 of the changes later releases made
to scheduling, so a run against that release's reference
(release-<release>/ or ../shared/nova-reference/release-2025.1/) checks them:

  az          an AZ request without AvailabilityZoneFilter (or with it: removed
              in 2023.2), with and without query_placement_for_availability_zone
  tenant      filter_tenant_id, filter_tenant_id_2, filter_tenant_idX keys
              (AggregateMultiTenancyIsolation reads every prefixed key, 2024.2)
  weighers    "all" or lists with HypervisorVersionWeigher, NumInstancesWeigher,
              ImagePropertiesWeigher and their multipliers (config, aggregates)
  instimg     hosts' instance_image_properties the request's image shares
  packed      hw:virtio_packed_ring / hw_virtio_packed_ring (2024.1)
  maxphys     hw:maxphysaddr_mode/_bits, image hw_maxphysaddr_*, cpu_info bits
  vtpm        hw:tpm_version/_model (+ 2026.1 hw:tpm_secret_security)
  firmware    hw_firmware_stateless with and without hw_firmware_type=uefi
  sound       hw:sound_model / hw_sound_model (2025.2)
  pages       pinned guest cells with and without a page size on host cells
              whose free small pages are fewer than their free memory (30.0.0)
  orphan      a multi-instance server-group request with a non-zero
              image_props_weight_multiplier (OrphanedObjectError in 2025.1)
  hvversion   img_hv_requested_version predicates (oslo's PEP 440 parsing)

--list prints each file's base and changes.
"""
import argparse
import json
import os
import random
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import generate  # noqa: E402


from common import load_tool, write_if_changed  # noqa: E402

numa_gen = load_tool("generate_numa", "generate-numa.py")
placement_gen = load_tool("placement_gen", "placement-gen.py")

RELEASES = ["2023.1", "2023.2", "2024.1", "2024.2", "2025.1", "2025.2", "2026.1"]
NEW_WEIGHERS = ["HypervisorVersionWeigher", "NumInstancesWeigher", "ImagePropertiesWeigher"]
OLD_WEIGHERS = ["RAMWeigher", "CPUWeigher", "DiskWeigher", "IoOpsWeigher", "ServerGroupSoftAffinityWeigher",
                "ServerGroupSoftAntiAffinityWeigher", "BuildFailureWeigher"]
PROJECTS = ["proj-a", "proj-b", "proj-c"]
IMAGE_PROPS = {
    "os_distro": ["ubuntu", "rhel", "windows"],
    "hw_machine_type": ["q35", "pc"],
    "hw_disk_bus": ["virtio", "scsi"],
    "os_type": ["linux", "windows"],
    "hw_vif_model": ["virtio", "e1000"],
}


def at(release, since):
    return RELEASES.index(release) >= RELEASES.index(since)


def hosts_of(s):
    return s.setdefault("hosts", [])


def is_placement(s):
    return bool(s.get("config", {}).get("placement"))


def filters(s):
    cfg = s["config"]
    if "enabled_filters" not in cfg:
        cfg["enabled_filters"] = ["ComputeFilter", "ImagePropertiesFilter"]
    return cfg["enabled_filters"]


def ensure_filter(s, name, r):
    f = filters(s)
    if name not in f:
        f.insert(r.randint(0, len(f)), name)


def request(s):
    return s.setdefault("request", {})


def flavor_specs(s):
    return request(s).setdefault("flavor", {}).setdefault("extra_specs", {})


def image_props(s):
    return request(s).setdefault("image", {}).setdefault("properties", {})


def add_traits(r, s, names, p):
    """Placement: some hosts report the traits (libvirt's capability traits)."""
    for h in hosts_of(s):
        if r.random() < p:
            t = h.setdefault("traits", [])
            for n in names:
                if n not in t and r.random() < 0.8:
                    t.append(n)


# --------------------------------------------------------------- changes
def m_az(r, s, rel):
    names = [h["name"] for h in hosts_of(s)]
    if not names:
        return
    aggs = [a for a in s.setdefault("aggregates", []) if a.get("availability_zone")]
    if not aggs or r.random() < 0.4:
        k = r.randint(1, len(names))
        aggs = [{"name": "az-x", "availability_zone": "az-x", "hosts": r.sample(names, k), "metadata": {}}]
        s["aggregates"].append(aggs[0])
    request(s)["availability_zone"] = r.choice([a["availability_zone"] for a in aggs] + ["nova", "az-none"])
    f = filters(s)
    if "AvailabilityZoneFilter" in f and r.random() < 0.6:
        f.remove("AvailabilityZoneFilter")
    elif r.random() < 0.3:
        ensure_filter(s, "AvailabilityZoneFilter", r)
    if is_placement(s) and r.random() < 0.3:
        s["config"]["query_placement_for_availability_zone"] = r.choice([True, False])


def m_tenant(r, s, rel):
    names = [h["name"] for h in hosts_of(s)]
    if not names:
        return
    aggs = s.setdefault("aggregates", [])
    for n in range(r.randint(1, 3)):
        md = {}
        for key in r.sample(["filter_tenant_id", "filter_tenant_id_2", "filter_tenant_id3", "filter_tenant_idx",
                             "filter_tenant", "FILTER_TENANT_ID_4"], r.randint(1, 3)):
            md[key] = r.choice(PROJECTS + ["proj-a,proj-b", "proj-c, proj-a", ""])
        aggs.append({"name": "tenant-%d" % n, "hosts": r.sample(names, r.randint(1, max(1, len(names) // 2))),
                     "metadata": md})
    ensure_filter(s, "AggregateMultiTenancyIsolation", r)
    request(s)["project_id"] = r.choice(PROJECTS)
    if is_placement(s) and r.random() < 0.5:
        s["config"]["limit_tenants_to_placement_aggregate"] = True
        if r.random() < 0.3:
            s["config"]["placement_aggregate_required_for_tenants"] = True


def m_weighers(r, s, rel):
    cfg = s["config"]
    if r.random() < 0.5:
        cfg["weighers"] = "all"
    else:
        cfg["weighers"] = r.sample(OLD_WEIGHERS, r.randint(0, 2)) + r.sample(NEW_WEIGHERS, r.randint(1, 3))
        r.shuffle(cfg["weighers"])
    for key, values in (("hypervisor_version_weight_multiplier", [-2.0, -1.0, 0.0, 0.5, 1.0, 3.0]),
                        ("num_instances_weight_multiplier", [-1.0, 0.0, 1.0, 2.0]),
                        ("image_props_weight_multiplier", [-1.0, 0.0, 1.0, 2.5])):
        if r.random() < 0.5:
            cfg[key] = r.choice(values)
    if r.random() < 0.3:
        keys = r.sample(sorted(IMAGE_PROPS), r.randint(1, 3))
        cfg["image_props_weight_setting"] = ", ".join("%s=%s" % (k, r.choice(["0.5", "1", "2.0", "3"])) for k in keys)
    for h in hosts_of(s):
        if r.random() < 0.7:
            h["hypervisor_version"] = r.choice([6002000, 7001000, 8000000, 9000000, 9000000, 10001002])
        if r.random() < 0.4:
            h["num_instances"] = r.randint(0, 12)
    names = [h["name"] for h in hosts_of(s)]
    if names and r.random() < 0.25:
        key = r.choice(["hypervisor_version_weight_multiplier", "num_instances_weight_multiplier",
                        "image_props_weight_multiplier"])
        s.setdefault("aggregates", []).append(
            {"name": "weights", "hosts": r.sample(names, r.randint(1, len(names))),
             "metadata": {key: r.choice(["-1.0", "2", "0.0", "abc"])}})


def m_instimg(r, s, rel):
    props = image_props(s)
    for k in r.sample(sorted(IMAGE_PROPS), r.randint(1, 4)):
        props[k] = r.choice(IMAGE_PROPS[k])
    for h in hosts_of(s):
        inst = h.get("instances") or []
        if not inst and r.random() < 0.5:
            inst = h["instances"] = ["%s-inst-%d" % (h["name"], k) for k in range(r.randint(1, 3))]
        table = {}
        for u in inst:
            if r.random() < 0.8:
                table[u] = {k: r.choice(v) for k, v in IMAGE_PROPS.items() if r.random() < 0.6}
        if table:
            h["instance_image_properties"] = table
    if s["config"].get("weighers") != "all":
        w = s["config"].setdefault("weighers", ["RAMWeigher"])
        if "ImagePropertiesWeigher" not in w and r.random() < 0.8:
            w.append("ImagePropertiesWeigher")
    if r.random() < 0.8:
        s["config"]["image_props_weight_multiplier"] = r.choice([-1.0, 1.0, 2.0])


def m_packed(r, s, rel):
    if r.random() < 0.6:
        flavor_specs(s)["hw:virtio_packed_ring"] = r.choice(["true", "false", "True", "yes", "bogus"])
    if r.random() < 0.5:
        image_props(s)["hw_virtio_packed_ring"] = r.choice(["true", "false", "yes"])
    add_traits(r, s, ["COMPUTE_NET_VIRTIO_PACKED"], 0.5)


def m_maxphys(r, s, rel):
    es = flavor_specs(s)
    if r.random() < 0.5:
        es["hw:maxphysaddr_mode"] = r.choice(["passthrough", "emulate", "emulate", "bogus"])
    if r.random() < 0.5:
        es["hw:maxphysaddr_bits"] = r.choice(["39", "42", "46", "52"])
    if r.random() < 0.4:
        image_props(s)["hw_maxphysaddr_mode"] = r.choice(["passthrough", "emulate"])
    if r.random() < 0.4:
        image_props(s)["hw_maxphysaddr_bits"] = r.choice([39, 42, 46, "48"])
    for h in hosts_of(s):
        if r.random() < 0.7:
            ci = h.setdefault("cpu_info", {"arch": "x86_64", "vendor": "Intel", "features": ["avx2"]})
            ci["maxphysaddr"] = {"mode": r.choice(["passthrough", "emulate"]), "bits": r.choice([39, 42, 46, 52])}
    add_traits(r, s, ["COMPUTE_ADDRESS_SPACE_PASSTHROUGH", "COMPUTE_ADDRESS_SPACE_EMULATED"], 0.6)
    ensure_filter(s, r.choice(["ComputeCapabilitiesFilter", "ImagePropertiesFilter"]), r)


def m_vtpm(r, s, rel):
    es = flavor_specs(s)
    if r.random() < 0.6:
        es["hw:tpm_version"] = r.choice(["2.0", "2.0", "1.2"])
        if r.random() < 0.6:
            es["hw:tpm_model"] = r.choice(["tpm-tis", "tpm-crb"])
    else:
        p = image_props(s)
        p["hw_tpm_version"] = r.choice(["2.0", "1.2"])
        if r.random() < 0.6:
            p["hw_tpm_model"] = r.choice(["tpm-tis", "tpm-crb"])
    if at(rel, "2026.1") and r.random() < 0.6:
        es["hw:tpm_secret_security"] = r.choice(["user", "host", "deployment", "bogus"])
    traits = ["COMPUTE_SECURITY_TPM_2_0", "COMPUTE_SECURITY_TPM_1_2", "COMPUTE_SECURITY_TPM_TIS",
              "COMPUTE_SECURITY_TPM_CRB"]
    if at(rel, "2025.1"):
        traits += ["COMPUTE_SECURITY_TPM_SECRET_SECURITY_USER", "COMPUTE_SECURITY_TPM_SECRET_SECURITY_HOST",
                   "COMPUTE_SECURITY_TPM_SECRET_SECURITY_DEPLOYMENT"]
    add_traits(r, s, traits, 0.7)


def m_firmware(r, s, rel):
    p = image_props(s)
    p["hw_firmware_stateless"] = r.choice([True, "true", False])
    if r.random() < 0.7:
        p["hw_firmware_type"] = r.choice(["uefi", "uefi", "bios"])
    add_traits(r, s, ["COMPUTE_SECURITY_STATELESS_FIRMWARE"], 0.6)


def m_sound(r, s, rel):
    if r.random() < 0.6:
        flavor_specs(s)["hw:sound_model"] = r.choice(["virtio", "ac97", "ich9", "bogus"])
    if r.random() < 0.5:
        image_props(s)["hw_sound_model"] = r.choice(["virtio", "sb16"])
    add_traits(r, s, ["COMPUTE_SOUND_MODEL_VIRTIO", "COMPUTE_SOUND_MODEL_AC97"], 0.6)


def m_pages(r, s, rel):
    """Pinned guest cells; host cells whose free 4 KiB pages are short of their free memory."""
    req = request(s)
    fl = req.setdefault("flavor", {})
    es = fl.setdefault("extra_specs", {})
    es["hw:cpu_policy"] = r.choice(["dedicated", "dedicated", "mixed"]) if r.random() < 0.85 else "shared"
    if es["hw:cpu_policy"] == "mixed":
        es["hw:cpu_dedicated_mask"] = "^0"
        fl["vcpus"] = max(2, fl.get("vcpus", 2))
    if r.random() < 0.45:
        es["hw:mem_page_size"] = r.choice(["small", "large", "any", "2048", "4"])
    else:
        es.pop("hw:mem_page_size", None)
    if r.random() < 0.4:
        es["hw:numa_nodes"] = r.choice(["1", "2"])
    fl["memory_mb"] = r.choice([1024, 2048, 4096, 6144, 8192, 12288])
    for h in hosts_of(s):
        cells = (h.get("numa_topology") or {}).get("cells") or []
        for c in cells:
            pages = c.get("mempages") or []
            small = [p for p in pages if p.get("size_kb") == 4]
            if not small:
                continue
            total_kb = small[0]["total"] * 4
            # free small pages between 0 and the whole cell's free memory
            small[0]["used"] = r.randint(0, small[0]["total"]) if r.random() < 0.7 else \
                max(0, small[0]["total"] - r.randint(0, total_kb // 4 // 2))
            if r.random() < 0.3:
                c["memory_usage"] = r.randint(0, c["memory"] // 2)
    if not is_placement(s):
        ensure_filter(s, "NUMATopologyFilter", r)


def m_orphan(r, s, rel):
    req = request(s)
    req["num_instances"] = r.choice([2, 3])
    members = [u for h in hosts_of(s) for u in h.get("instances", [])]
    g = {"uuid": "5f1a9c1e-0000-4000-8000-%012d" % r.randint(0, 10 ** 6), "name": "grp",
         "policy": r.choice(["anti-affinity", "affinity", "soft-affinity", "soft-anti-affinity"]),
         "members": r.sample(members, min(len(members), r.randint(0, 2)))}
    s["server_groups"] = [g]
    req["server_group"] = g["uuid"]
    req.get("scheduler_hints", {}).pop("group", None)
    cfg = s["config"]
    cfg["image_props_weight_multiplier"] = r.choice([0.0, 1.0, 1.0, -1.0])
    if cfg.get("weighers") != "all":
        w = cfg.setdefault("weighers", ["RAMWeigher"])
        if "ImagePropertiesWeigher" not in w:
            w.append("ImagePropertiesWeigher")
    if r.random() < 0.5:
        image_props(s)["os_distro"] = "ubuntu"


def m_hvversion(r, s, rel):
    image_props(s)["img_hv_requested_version"] = r.choice(
        [">=6.2", ">=99", "<7", ">= 8.0.0", "==6.2.0", "!=7.1", ">=6.2,<9", ">=1.0a1", ">=v8", ">6.2.post1",
         "~=7", ">=", ">=7.0.0.0", "<=10.1.2"])
    for h in hosts_of(s):
        if r.random() < 0.6:
            h["hypervisor_version"] = r.choice([6002000, 7001000, 8000000, 10001002])
    ensure_filter(s, "ImagePropertiesFilter", r)


CHANGES = {
    "az": (m_az, "2023.1"), "tenant": (m_tenant, "2023.1"), "weighers": (m_weighers, "2023.1"),
    "instimg": (m_instimg, "2023.1"), "packed": (m_packed, "2023.1"), "maxphys": (m_maxphys, "2023.1"),
    "vtpm": (m_vtpm, "2023.1"), "firmware": (m_firmware, "2023.1"), "sound": (m_sound, "2025.2"),
    "pages": (m_pages, "2023.1"), "orphan": (m_orphan, "2023.1"), "hvversion": (m_hvversion, "2023.1"),
}
# Changes that only say something on the Placement path (traits) or on NUMA hosts
PLACEMENT_ONLY = {"packed", "vtpm", "firmware", "sound"}


def single_nodes(s):
    """One node per host (nodes of their own are another generator's business)."""
    seen = set()
    hosts = []
    for h in s.get("hosts", []):
        h.pop("node", None)
        if h["name"] in seen:
            continue
        seen.add(h["name"])
        hosts.append(h)
    s["hosts"] = hosts
    req = s.get("request", {})
    if "force_nodes" in req:
        req["force_nodes"] = [n for n in req["force_nodes"] if n in seen] or [hosts[0]["name"]]


def make(release, seed, index):
    r = random.Random("schedscope-release-%s-%s-%d" % (release, seed, index))
    u = r.random()
    if u < 0.35:
        base = "plain"
        s, _, _ = generate.make(seed, index, 0.25)
    elif u < 0.65:
        base = "numa"
        s = numa_gen.scenario("%s-%s" % (release, seed), index)
    else:
        base = "placement"
        s = placement_gen.scenario(random.Random("release-%s-%d" % (seed, index)), index)
    single_nodes(s)
    s.setdefault("config", {})["nova_release"] = release
    names = [n for n, (_, since) in sorted(CHANGES.items()) if at(release, since)
             and (base == "placement" or n not in PLACEMENT_ONLY or r.random() < 0.15)
             and (base == "numa" or n != "pages" or r.random() < 0.1)]
    picks = r.sample(names, min(len(names), r.choice([2, 3, 3, 4, 5])))
    if base == "numa" and "pages" not in picks and r.random() < 0.6:
        picks.append("pages")
    for n in picks:
        CHANGES[n][0](r, s, release)
    return s, base, picks


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--release", required=True, choices=RELEASES)
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--prefix", default=None)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--list", action="store_true")
    a = ap.parse_args(argv)
    prefix = a.prefix if a.prefix is not None else "r%s-" % a.release
    os.makedirs(a.out, exist_ok=True)
    for i in range(a.start, a.start + a.count):
        s, base, picks = make(a.release, a.seed, i)
        name = "%s%d-%04d.scenario.json" % (prefix, a.seed, i)
        write_if_changed(os.path.join(a.out, name), json.dumps(s, indent=1) + "\n")
        if a.list:
            print(name, base, " ".join(picks))
    return 0


if __name__ == "__main__":
    sys.exit(main())
