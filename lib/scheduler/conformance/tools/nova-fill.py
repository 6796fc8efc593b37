#!/usr/bin/python3
"""Capacity by filling, answered by Nova: the reference loop the capacity CLI must agree with.

usage: /usr/bin/python3 nova-fill.py [--limit N] [--out DIR] SCENARIO.json...

For each scenario: boot its flavor as a single-instance request through
nova_reference.py (imported once, nova.conf overrides reset per boot), keep
the boot on the chosen host by editing the scenario as the cloud would look
once the instance runs (vcpus_used, memory_mb_used, local_gb_used,
free_ram_mb / free_disk_gb / disk_available_least when given, num_instances,
the host's instances, the server group's members; not num_io_ops), and
repeat until Nova answers NoValidHost (or raises) or N boots were made.

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


def finish_boot(ref, scenario, host_name, n):
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
        finish_boot(ref, scenario, chosen, count)
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
