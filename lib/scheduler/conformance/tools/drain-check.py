#!/usr/bin/python3
"""Check `npm run -s drain` against a loop of single moves through Nova's reference.

usage: /usr/bin/python3 drain-check.py --seed N --count K [--keep DIR]

For each of K small random clouds (seed N): pick 1-2 hosts to drain, run our
drain CLI, then drain the same cloud here with nova_reference.py answering
every single move (SCENARIO.md "Moves"): the hosts' services disabled, each
instance live-migrated, or cold-migrated when the live migration fails, each
move committed (instance and usage leave the source for the destination)
before the next. Each move's answer (operation, destination, or stranded)
and the final placement must be equal. The clouds mix hypervisor types and
versions (a live migration's conductor skips a host of another type or an
older version and asks again), carry flavors with PCI devices (never
live-migrated: the conductor refuses every host) and now and then a
[DEFAULT] migrate_max_retries. Prints one line per cloud and
'agree N/K'. --keep DIR writes each cloud (and the drained hosts) there.
"""
import argparse
import copy
import json
import os
import random
import subprocess
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import answer, load_reference  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", "..", ".."))


def uuid(rng):
    return "%08x-%04x-4%03x-8%03x-%012x" % (
        rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
        rng.getrandbits(12), rng.getrandbits(48))


def cloud(rng):
    flavors = [{"name": "small", "vcpus": 1, "memory_mb": 2048, "root_gb": 10},
               {"name": "medium", "vcpus": 2, "memory_mb": 4096, "root_gb": 20},
               {"name": "large", "vcpus": 4, "memory_mb": 16384, "root_gb": 40},
               {"name": "gpu", "vcpus": 2, "memory_mb": 4096, "root_gb": 20,
                "extra_specs": {"pci_passthrough:alias": "a100:1"}}]
    mixed = rng.random() < 0.6
    images = [{"id": "img-x86", "properties": {"hw_architecture": "x86_64"}}]
    placement = rng.random() < 0.6
    n = rng.randint(3, 7)
    hosts, instances = [], []
    for i in range(n):
        h = {"name": "cmp-%02d" % i, "vcpus": rng.choice([4, 8, 16]),
             "memory_mb": rng.choice([8192, 16384, 32768]), "local_gb": rng.choice([100, 200, 400]),
             "vcpus_used": 0, "memory_mb_used": 0, "local_gb_used": 0, "num_instances": 0,
             "instances": [], "cpu_allocation_ratio": rng.choice([1.0, 2.0]),
             "supported_instances": [["x86_64", "kvm", "hvm"]]}
        if rng.random() < 0.15:
            h["service"] = {"disabled": True, "disabled_reason": "old"}
        if mixed:
            h["hypervisor_type"] = rng.choice(["QEMU", "QEMU", "QEMU", "VMware vCenter Server"])
            h["hypervisor_version"] = rng.choice([6002000, 7001000, 8000000])
        if rng.random() < 0.4:
            h["pci_device_pools"] = [{"vendor_id": "10de", "product_id": "20b5", "numa_node": None,
                                      "count": rng.randint(1, 3), "tags": {"dev_type": "type-PCI"}}]
        for _ in range(rng.randint(0, 4)):
            f = rng.choice(flavors)
            if "extra_specs" in f and not h.get("pci_device_pools"):
                f = flavors[0]
            u = uuid(rng)
            h["instances"].append(u)
            h["vcpus_used"] += f["vcpus"]
            h["memory_mb_used"] += f["memory_mb"]
            h["local_gb_used"] += f["root_gb"]
            h["num_instances"] += 1
            instances.append({"uuid": u, "flavor": f["name"], "image": "img-x86",
                              "project_id": "proj-a"})
        hosts.append(h)
    cfg = {"enabled_filters": rng.sample(["ComputeFilter", "ServerGroupAntiAffinityFilter",
                                          "ServerGroupAffinityFilter", "ImagePropertiesFilter",
                                          "NumInstancesFilter"], rng.randint(2, 4)),
           "weighers": rng.sample(["RAMWeigher", "CPUWeigher", "DiskWeigher",
                                   "ServerGroupSoftAntiAffinityWeigher"], rng.randint(1, 3)),
           "max_instances_per_host": rng.choice([3, 4, 50]),
           "pci_alias": [{"name": "a100", "vendor_id": "10de", "product_id": "20b5",
                          "device_type": "type-PCI"}]}
    if rng.random() < 0.5:
        cfg["enabled_filters"].append("PciPassthroughFilter")
    if rng.random() < 0.4:
        cfg["migrate_max_retries"] = rng.choice([0, 1, 2])
    if placement:
        cfg["placement"] = True
    doc = {"config": cfg, "hosts": hosts, "flavors": flavors, "images": images,
           "instances": instances}
    placed = [i["uuid"] for i in instances]
    if len(placed) >= 2 and rng.random() < 0.5:
        doc["server_groups"] = [{"uuid": uuid(rng), "name": "grp",
                                 "policy": rng.choice(["anti-affinity", "affinity", "soft-anti-affinity"]),
                                 "members": rng.sample(placed, rng.randint(2, min(4, len(placed))))}]
    with_instances = [h["name"] for h in hosts if h["instances"]] or [hosts[0]["name"]]
    drained = rng.sample(with_instances, min(len(with_instances), rng.choice([1, 1, 2])))
    return doc, drained


def move_scenario(doc, u, host, op):
    inst = next(i for i in doc["instances"] if i["uuid"] == u)
    flavor = next(f for f in doc["flavors"] if f["name"] == inst["flavor"])
    image = next(im for im in doc["images"] if im["id"] == inst["image"])
    s = {k: v for k, v in doc.items() if k not in ("flavors", "images", "instances", "request")}
    s = copy.deepcopy(s)
    s["request"] = {"operation": op, "project_id": inst["project_id"],
                    "instance": {"uuid": u, "host": host["name"], "flavor": flavor, "image": image}}
    return s


def commit(doc, u, src, dst):
    inst = next(i for i in doc["instances"] if i["uuid"] == u)
    f = next(x for x in doc["flavors"] if x["name"] == inst["flavor"])
    disk = f.get("root_gb", 0) + f.get("ephemeral_gb", 0) + -(-f.get("swap", 0) // 1024)
    src["instances"].remove(u)
    src["vcpus_used"] -= f["vcpus"]
    src["memory_mb_used"] -= f["memory_mb"]
    src["local_gb_used"] -= disk
    src["num_instances"] = max(src["num_instances"] - 1, 0)
    dst["instances"].append(u)
    dst["vcpus_used"] = dst.get("vcpus_used", 0) + f["vcpus"]
    dst["memory_mb_used"] = dst.get("memory_mb_used", 0) + f["memory_mb"]
    dst["local_gb_used"] = dst.get("local_gb_used", 0) + disk
    dst["num_instances"] = dst.get("num_instances", 0) + 1
    pools = dst.get("pci_device_pools")
    if "pci_passthrough:alias" in f.get("extra_specs", {}) and pools and pools[0]["count"] > 0:
        # the destination's claim took one device of its (only) pool (without
        # PciPassthroughFilter a host without devices may take it: nothing to claim)
        pools[0]["count"] -= 1


def reference_drain(ref, doc, drained):
    doc = copy.deepcopy(doc)
    by_name = {h["name"]: h for h in doc["hosts"]}
    for name in drained:
        svc = dict(by_name[name].get("service") or {})
        svc.update(disabled=True, disabled_reason="drain")
        by_name[name]["service"] = svc
    steps = []
    for name in drained:
        src = by_name[name]
        for u in list(src["instances"]):
            step = {"instance": u, "operation": None, "destination": None}
            for op in ("live-migrate", "migrate"):
                res = answer(ref, scenario=move_scenario(doc, u, src, op))
                if res.get("error") is None and res.get("selections"):
                    dest = res["selections"][0]["host"]
                    commit(doc, u, src, by_name[dest])
                    step.update(operation=op, destination=dest)
                    break
                step["error"] = res.get("error")
            steps.append(step)
    return steps, {h["name"]: sorted(h["instances"]) for h in doc["hosts"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--keep")
    args = ap.parse_args()
    ref = load_reference()
    agree = 0
    work = args.keep or "/tmp/schedscope-drain-check"
    os.makedirs(work, exist_ok=True)
    for k in range(args.count):
        rng = random.Random("%d-%d" % (args.seed, k))
        doc, drained = cloud(rng)
        path = os.path.join(work, "drain-%d-%03d.cloud.json" % (args.seed, k))
        with open(path, "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
        out = subprocess.run(["npm", "run", "-s", "drain", "--", path] + drained, cwd=ROOT,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        lines = [json.loads(x) for x in out.stdout.splitlines() if x.strip()]
        ours = [x for x in lines if not x.get("summary")]
        theirs, final = reference_drain(ref, doc, drained)
        why = None
        if out.returncode != 0:
            why = "drain failed: %s" % out.stderr.strip()[-300:]
        elif len(ours) != len(theirs):
            why = "steps: nova %d, project %d" % (len(theirs), len(ours))
        else:
            for a, b in zip(theirs, ours):
                if (a["instance"], a["operation"], a["destination"]) != \
                        (b["instance"], b["operation"], b["destination"]):
                    why = "step %s: nova %s %s, project %s %s" % (
                        a["instance"][:8], a["operation"], a["destination"],
                        b["operation"], b["destination"])
                    break
        if why is None:
            # the final placement: replay our steps on the cloud
            mine = copy.deepcopy(doc)
            hosts = {h["name"]: h for h in mine["hosts"]}
            for s in ours:
                if s["destination"]:
                    commit(mine, s["instance"], hosts[s["source"]], hosts[s["destination"]])
            if {n: sorted(h["instances"]) for n, h in hosts.items()} != final:
                why = "final placement"
        if why is None:
            agree += 1
        print("%s drain %s: %d moves, %s" % (os.path.basename(path), ",".join(drained), len(theirs),
                                            why or "agree"))
        sys.stdout.flush()
    print("agree %d/%d" % (agree, args.count))
    return 0 if agree == args.count else 1


if __name__ == "__main__":
    sys.exit(main())
