#!/usr/bin/env python3
"""Multi-instance requests into server groups, on both paths.

usage: group-gen.py [--placement-only] OUT_DIR N [SEED]
  writes OUT_DIR/group-gen-SEED-K.scenario.json for K in 0..N-1
  --placement-only  every scenario on the Placement path

What nova-api does before a multi-create reaches the scheduler (the request's
own instances join the group) decides where instance 2 onwards may go: every
scenario here asks for 2 to 6 instances in a group of one of the four
policies (anti-affinity with and without max_server_per_host), whose filter
or weigher is enabled. Even K: generate.py's cloud, without Placement; odd K:
placement-gen.py's, with it, most of them with a plain flavor so that
Placement returns hosts for the group to choose among. Some groups start empty, some with members on
the hosts, and small clouds make the group run out of hosts.
Answer them with nova-batch.py (fuzzing) or make-fixtures.py (fixtures).
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True
sys.path.insert(0, HERE)
from common import load_tool, write_if_changed  # noqa: E402

legacy = load_tool("generate", "generate.py")
placement = load_tool("placement_gen", "placement-gen.py")

POLICIES = ["affinity", "anti-affinity", "anti-affinity", "soft-affinity", "soft-anti-affinity"]
FILTER_OF = {"affinity": "ServerGroupAffinityFilter", "anti-affinity": "ServerGroupAntiAffinityFilter"}
WEIGHER_OF = {"soft-affinity": "ServerGroupSoftAffinityWeigher",
              "soft-anti-affinity": "ServerGroupSoftAntiAffinityWeigher"}


def group_request(rng, s, few_hosts):
    hosts = s["hosts"]
    if rng.random() < few_hosts:  # few hosts: the group runs out of room
        keep = rng.randint(1, min(4, len(hosts)))
        hosts[:] = hosts[:keep]
        names = {h["name"] for h in hosts}
        for a in s.get("aggregates", []):
            a["hosts"] = [h for h in a["hosts"] if h in names]
        s["request"].pop("force_hosts", None)
        s["request"].pop("force_nodes", None)
        s["request"].pop("ignore_hosts", None)
        s["request"].pop("scheduler_hints", None)
    on_hosts = [u for h in hosts for u in h.get("instances", [])]
    policy = rng.choice(POLICIES)
    members = rng.sample(on_hosts, min(len(on_hosts), rng.choice([0, 0, 1, 2, 3])))
    members += ["%08x-0000-4000-8000-%012x" % (rng.getrandbits(32), k) for k in range(rng.choice([0, 0, 1]))]
    g = {"uuid": "%08x-1111-4111-8111-%012x" % (rng.getrandbits(32), rng.getrandbits(40)),
         "name": "grp-multi", "policy": policy, "members": members}
    if policy == "anti-affinity" and rng.random() < 0.5:
        g["rules"] = {"max_server_per_host": rng.choice([1, 2, 2, 3])}
    s["server_groups"] = [g]
    s["request"]["server_group"] = g["name"] if rng.random() < 0.3 else g["uuid"]
    s["request"]["num_instances"] = rng.randint(2, 6)
    cfg = s["config"]
    if policy in FILTER_OF:
        f = cfg.setdefault("enabled_filters", [])
        if FILTER_OF[policy] not in f:
            f.insert(rng.randint(0, len(f)), FILTER_OF[policy])
    else:
        w = cfg.get("weighers")
        if not isinstance(w, list):
            w = cfg["weighers"] = ["RAMWeigher"]
        if WEIGHER_OF[policy] not in w:
            w.insert(rng.randint(0, len(w)), WEIGHER_OF[policy])
        key = policy.replace("-", "_") + "_weight_multiplier"
        cfg[key] = rng.choice([1.0, 2.0, 10.0, 100.0])
    return s


def scenario(seed, k, placement_only=False):
    rng = random.Random("group-gen-%d-%d" % (seed, k))
    if k % 2 == 0 and not placement_only:
        return group_request(rng, legacy.Gen(rng).normal(), 0.35)
    placement.NUMA = False
    s = placement.scenario(rng, k)
    if rng.random() < 0.7:
        f = s["request"]["flavor"]
        f["extra_specs"] = {}
        f.update(vcpus=rng.choice([1, 2, 4]), memory_mb=rng.choice([1024, 2048, 4096]),
                 root_gb=rng.choice([10, 20]), ephemeral_gb=0, swap=0)
        for opt in ("placement_aggregate_required_for_tenants", "query_placement_for_image_type_support"):
            s["config"].pop(opt, None)
    # One node per host here: several nodes on one host have fuzzing of their own.
    s["hosts"] = [h for h in s["hosts"] if h.get("node") != "cmp-000-b"]
    for h in s["hosts"]:
        h.pop("node", None)
    s["request"].pop("force_nodes", None)
    return group_request(rng, s, 0.1)


def main():
    args = sys.argv[1:]
    placement_only = args[:1] == ["--placement-only"]
    if placement_only:
        args = args[1:]
    if len(args) < 2:
        sys.exit(__doc__)
    out, n = args[0], int(args[1])
    seed = int(args[2]) if len(args) > 2 else 1
    os.makedirs(out, exist_ok=True)
    for k in range(n):
        path = os.path.join(out, "group-gen-%d-%03d.scenario.json" % (seed, k))
        write_if_changed(path, json.dumps(scenario(seed, k, placement_only), indent=1, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()
