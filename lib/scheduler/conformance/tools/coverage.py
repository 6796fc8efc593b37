#!/usr/bin/env python3
"""Check conformance fixtures and print what they cover.

usage: coverage.py DIR_OR_FILES...   (pairs X.scenario.json / X.expected.json)

Verifies every expected file is valid JSON with the result keys, then prints
tables: results/errors, filters (ran / rejected something), weighers (weighed
>= 2 hosts / raw values differed / aggregate override of the multiplier),
extra-spec operators and namespaces, scheduler hints, other features.
Exit status 1 if a fixture is missing or invalid.
"""
import collections
import glob
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import EXTRA_FILTERS, FILTERS, WEIGHERS, scenario_files  # noqa: E402

OPS = ["=", "==", "!=", ">=", "<=", "s==", "s!=", "s>=", "s>", "s<=", "s<",
       "<in>", "<all-in>", "<or>"]
AGG_MULT_TO_WEIGHER = {
    "ram_weight_multiplier": "RAMWeigher",
    "cpu_weight_multiplier": "CPUWeigher",
    "disk_weight_multiplier": "DiskWeigher",
    "io_ops_weight_multiplier": "IoOpsWeigher",
    "pci_weight_multiplier": "PCIWeigher",
    "soft_affinity_weight_multiplier": "ServerGroupSoftAffinityWeigher",
    "soft_anti_affinity_weight_multiplier":
        "ServerGroupSoftAntiAffinityWeigher",
    "build_failure_weight_multiplier": "BuildFailureWeigher",
    "cross_cell_move_weight_multiplier": "CrossCellWeigher",
    "metrics_weight_multiplier": "MetricsWeigher",
}


def op_of(value):
    words = str(value).split()
    if words and words[0] in OPS:
        return words[0] + ("" if len(words) > 1 else " (no operand)")
    return "(plain value)"


def table(title, rows, header):
    print("\n%s" % title)
    widths = [max(len(str(r[i])) for r in rows + [header])
              for i in range(len(header))]
    fmt = "  ".join("%%-%ds" % w if i == 0 else "%%%ds" % w
                    for i, w in enumerate(widths))
    print("  " + fmt % tuple(header))
    for r in rows:
        print("  " + fmt % tuple(r))


def main():
    files = scenario_files(sys.argv[1:] or ["."])
    bad = 0
    results = collections.Counter()
    messages = collections.defaultdict(list)
    f_ran = collections.Counter()
    f_rej = collections.Counter()
    f_enabled = collections.Counter()
    w_used = collections.Counter()
    w_varied = collections.Counter()
    w_override = collections.Counter()
    w_enabled = collections.Counter()
    ops = collections.Counter()
    spaces = collections.Counter()
    hints = collections.Counter()
    feats = collections.Counter()
    n = 0
    for sf in files:
        ef = sf[:-len(".scenario.json")] + ".expected.json"
        name = os.path.basename(sf)[:-len(".scenario.json")]
        try:
            s = json.load(open(sf))
            e = json.load(open(ef))
            assert isinstance(e, dict) and "error" in e and "requests" in e
        except Exception as ex:  # noqa
            print("INVALID %s: %s" % (name, ex))
            bad += 1
            continue
        n += 1
        err = e["error"]
        results["ok (error=null)" if err is None else err] += 1
        if err not in (None, "NoValidHost"):
            messages[err].append((name, e.get("message", "")))
        cfg = s.get("config", {})
        req = s["request"]
        for fl in cfg.get("enabled_filters", []):
            f_enabled[fl] += 1
        ran, rej = set(), set()
        for r in e["requests"]:
            for st in r["funnel"]:
                ran.add(st["filter"])
                if st["out"] < st["in"]:
                    rej.add(st["filter"])
        for fl in ran:
            f_ran[fl] += 1
        for fl in rej:
            f_rej[fl] += 1
        wl = cfg.get("weighers", "all")
        for w in (WEIGHERS if wl == "all" else wl):
            w_enabled[w] += 1
        used, varied, over = set(), set(), set()
        for r in e["requests"]:
            ws = r["weighed"]
            if len(ws) >= 2:
                raws = collections.defaultdict(set)
                mults = collections.defaultdict(set)
                for w in ws:
                    for wn, parts in w["weighers"].items():
                        used.add(wn)
                        raws[wn].add(json.dumps(parts["raw"]))
                        mults[wn].add(parts["multiplier"])
                for wn in raws:
                    if len(raws[wn]) > 1:
                        varied.add(wn)
                    if len(mults[wn]) > 1:
                        over.add(wn)
        for w in used:
            w_used[w] += 1
        for w in varied:
            w_varied[w] += 1
        for w in over:
            w_override[w] += 1
        specs = req["flavor"].get("extra_specs", {})
        for k, v in specs.items():
            ops[op_of(v)] += 1
            ns = k.split(":")[0] + ":" if ":" in k else "(unscoped)"
            if k.startswith("capabilities:cpu_info:"):
                ns = "capabilities:cpu_info:*"
            spaces[ns] += 1
        for k in (req.get("scheduler_hints") or {}):
            hints[k] += 1
        if req.get("server_group"):
            g = next((g for g in s.get("server_groups", [])
                      if req["server_group"] in (g.get("uuid"), g.get("name"))),
                     None)
            if g:
                hints["server_group:" + g["policy"]] += 1
                if g.get("rules"):
                    hints["server_group rules"] += 1
        nh = len(s["hosts"])
        feats["hosts 1"] += nh == 1
        feats["hosts 2-9"] += 2 <= nh <= 9
        feats["hosts 10-32"] += 10 <= nh <= 32
        feats["hosts 33-40"] += 33 <= nh <= 40
        ni = req.get("num_instances", 1)
        feats["num_instances > 1"] += ni > 1
        feats["num_instances > 1 and ok"] += ni > 1 and err is None
        feats["ignore_hosts"] += bool(req.get("ignore_hosts"))
        feats["force_hosts"] += bool(req.get("force_hosts"))
        feats["force_nodes"] += bool(req.get("force_nodes"))
        feats["host_subset_size > 1"] += cfg.get("host_subset_size", 1) > 1
        feats["weighers = \"all\""] += wl == "all"
        feats["metrics_required=false"] += cfg.get("metrics_required") is False
        feats["isolated_hosts"] += bool(cfg.get("isolated_hosts"))
        feats["img isolation namespace"] += bool(
            cfg.get("aggregate_image_properties_isolation_namespace"))
        feats["several cells"] += len({h.get("cell", "cell1")
                                       for h in s["hosts"]}) > 1
        alts = [x["alternates"] for x in e.get("selections", [])]
        feats["alternates non-empty"] += any(alts)
        feats["0 hosts survive a filter"] += any(
            st["out"] == 0 for r in e["requests"] for st in r["funnel"])
        feats["1 host weighed (no weighing)"] += any(
            len(r["weighed"]) == 1 for r in e["requests"])
        ties = False
        for r in e["requests"]:
            wts = [w["weight"] for w in r["weighed"]]
            if len(wts) != len(set(wts)):
                ties = True
        feats["tied weights"] += ties
        feats["NoValidHost at index > 0"] += (
            err == "NoValidHost" and len(e["requests"]) > 1)
        feats["agg multiplier metadata"] += any(
            k in AGG_MULT_TO_WEIGHER for a in s.get("aggregates", [])
            for k in a.get("metadata", {}))
        feats["image properties"] += bool(
            (req.get("image") or {}).get("properties"))
        feats["AZ requested"] += bool(req.get("availability_zone"))

    print("fixtures: %d valid, %d invalid" % (n, bad))
    table("RESULTS", [(k, v) for k, v in results.most_common()],
          ["result", "scenarios"])
    table("FILTERS (scenarios)",
          [(f, f_enabled[f], f_ran[f], f_rej[f])
           for f in FILTERS + EXTRA_FILTERS],
          ["filter", "enabled", "ran", "rejected>=1"])
    table("WEIGHERS (scenarios)",
          [(w, w_enabled[w], w_used[w], w_varied[w], w_override[w])
           for w in WEIGHERS],
          ["weigher", "enabled", "weighed>=2", "raw varied", "agg mult"])
    table("EXTRA-SPEC OPERATORS (spec entries)",
          sorted(ops.items(), key=lambda kv: -kv[1]), ["operator", "n"])
    table("EXTRA-SPEC NAMESPACES (spec entries)",
          sorted(spaces.items(), key=lambda kv: -kv[1]), ["namespace", "n"])
    table("HINTS / GROUPS (scenarios)",
          sorted(hints.items(), key=lambda kv: -kv[1]), ["hint", "n"])
    table("FEATURES (scenarios)", list(feats.items()), ["feature", "n"])
    if messages:
        print("\nERROR EXAMPLES")
        for err, lst in sorted(messages.items()):
            print("  %s (%d): %s: %s" % (err, len(lst), lst[0][0],
                                         lst[0][1][:110]))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
