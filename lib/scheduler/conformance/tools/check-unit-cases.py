#!/usr/bin/env python3
"""Check the per-filter and per-weigher unit cases against Nova.

    SCHEDSCOPE_UNIT_CASES=/tmp/cases npx vitest run lib/scheduler/filters lib/scheduler/weighers
    python3 lib/scheduler/conformance/tools/check-unit-cases.py /tmp/cases

Each file holds a scenario that enables one filter (or one weigher) and our
answer: the hosts that passed, or each host's raw weight and multiplier.
The scenario runs through ../shared/nova-reference/nova_reference.py; any
difference is printed. Weighers the Zed reference does not have
(HypervisorVersionWeigher, NumInstancesWeigher: 2024.1) are skipped; their
cases follow Nova 2024.1's weights/hypervisor_version.py and
num_instances.py. Exit 1 when one differs. Stdlib only.
"""
import glob
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", "..", ".."))
REFERENCE = os.path.join(ROOT, "..", "shared", "nova-reference", "nova_reference.py")


def reference(scenario):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(scenario, f)
    try:
        out = subprocess.run(["/usr/bin/python3", REFERENCE, f.name], capture_output=True, text=True, check=True)
        return json.loads(out.stdout)
    finally:
        os.unlink(f.name)


SKIPPED = "skipped"


def check(case):
    scenario, ours, name = case["scenario"], case["ours"], case["name"]
    result = reference(scenario)
    if result.get("error") == "KeyError" and name in (result.get("message") or ""):
        return SKIPPED  # a 2024.1 weigher the Zed reference does not have
    req = (result.get("requests") or [{}])[0]
    hosts = [h["name"] for h in scenario["hosts"]]
    if case["kind"] == "filter":
        step = next((s for s in req.get("funnel", []) if s["filter"] == name), None)
        if step is None:
            return f"the reference ran no {name} (error {result.get('error')}: {result.get('message')})"
        passed = [h for h in hosts if h not in step["rejected"]]
        return None if passed == ours["passed"] else f"reference passes {passed}, ours {ours['passed']}"
    diffs = []
    weighed = {w["host"]: w["weighers"].get(name) for w in req.get("weighed", [])}
    for host, w in ours["weights"].items():
        ref = weighed.get(host)
        if ref is None:
            diffs.append(f"{host}: not weighed by the reference")
        elif abs(ref["raw"] - w["raw"]) > 1e-9 or abs(ref["multiplier"] - w["multiplier"]) > 1e-9:
            diffs.append(f"{host}: reference raw {ref['raw']} × {ref['multiplier']}, ours {w['raw']} × {w['multiplier']}")
    return "; ".join(diffs) or None


def main(argv):
    if len(argv) != 2:
        print(__doc__)
        return 2
    files = sorted(glob.glob(os.path.join(argv[1], "*.json")))
    bad = skipped = 0
    for file in files:
        with open(file) as f:
            case = json.load(f)
        problem = check(case)
        if problem == SKIPPED:
            skipped += 1
            print(f"skipped {os.path.basename(file)}: {case['name']} is not in the Zed reference")
        elif problem:
            bad += 1
            print(f"DIFFERS {os.path.basename(file)}: {problem}")
    print(f"{len(files) - bad - skipped}/{len(files) - skipped} cases agree with Nova ({skipped} skipped)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
