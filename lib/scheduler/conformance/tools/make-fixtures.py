#!/usr/bin/env python3
"""Run Nova's reference scheduler on scenario files: X.scenario.json -> X.expected.json.

usage: make-fixtures.py [-j 2] [--force] [--strip-timing] PATH...
  PATH  scenario files or directories (every *.scenario.json inside)
  -j    parallel reference processes (default 2; each run is ~1 s of
        Python/Nova start-up)
  --force         re-run even when X.expected.json is newer than the scenario
  --strip-timing  drop the "timing" key (keeps fixtures byte-stable across
                  regenerations; compare.py never reads it)

The reference is ../shared/nova-reference/nova_reference.py run by
/usr/bin/python3 (override with NOVA_REFERENCE / NOVA_PYTHON).
"""
import argparse
import concurrent.futures
import glob
import json
import os
import subprocess
import sys
import time

REF = os.environ.get("NOVA_REFERENCE",
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "..", "shared", "nova-reference", "nova_reference.py"))
PY = os.environ.get("NOVA_PYTHON", "/usr/bin/python3")


def expected_path(scenario):
    return scenario[:-len(".scenario.json")] + ".expected.json"


def run_one(scenario, strip_timing):
    t0 = time.time()
    p = subprocess.run([PY, REF, scenario], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, universal_newlines=True)
    dt = time.time() - t0
    if p.returncode != 0 or not p.stdout.strip():
        return scenario, dt, "reference failed (rc=%d): %s" % (
            p.returncode, p.stderr.strip()[-500:])
    try:
        doc = json.loads(p.stdout)
    except ValueError as e:
        return scenario, dt, "reference printed invalid JSON: %s" % e
    if strip_timing:
        doc.pop("timing", None)
    with open(expected_path(scenario), "w") as f:
        json.dump(doc, f, indent=1, sort_keys=True, allow_nan=False)
        f.write("\n")
    return scenario, dt, None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("paths", nargs="+")
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--force", action="store_true")
    ap.add_argument("--strip-timing", action="store_true")
    ap.add_argument("-q", "--quiet", action="store_true")
    a = ap.parse_args()
    files = []
    for p in a.paths:
        if os.path.isdir(p):
            files += sorted(glob.glob(os.path.join(p, "*.scenario.json")))
        else:
            files.append(p)
    todo = []
    for f in files:
        e = expected_path(f)
        if (not a.force and os.path.exists(e)
                and os.path.getmtime(e) >= os.path.getmtime(f)):
            continue
        todo.append(f)
    failures = 0
    total = 0.0
    t0 = time.time()
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        futs = [ex.submit(run_one, f, a.strip_timing) for f in todo]
        for i, fut in enumerate(concurrent.futures.as_completed(futs)):
            scenario, dt, err = fut.result()
            total += dt
            if err:
                failures += 1
                print("FAIL %s: %s" % (scenario, err), file=sys.stderr)
            elif not a.quiet:
                print("[%d/%d] %s %.2fs" % (i + 1, len(todo),
                                            os.path.basename(scenario), dt))
    wall = time.time() - t0
    print("reference runs: %d (skipped %d up to date), failures %d, "
          "wall %.1fs, mean %.2fs per run"
          % (len(todo), len(files) - len(todo), failures, wall,
             total / len(todo) if todo else 0.0))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
