#!/usr/bin/python3
"""Run nova_reference.py on many scenarios in ONE Python process (fast fuzzing).

usage: /usr/bin/python3 nova-batch.py [-j 2] PATH...
  PATH  scenario files or directories (every *.scenario.json inside);
        writes X.expected.json beside each X.scenario.json (no "timing").

nova_reference.py pays ~1 s of Nova import per scenario; this imports it
once and calls its schedule() per file, resetting nova.conf overrides in
between. It is a speed-up for fuzzing only: fixtures committed to the repo
are always produced by nova_reference.py itself (make-fixtures.py).
"""
import json
import os
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import answer, load_reference, scenario_files  # noqa: E402


def run(files):
    ref = load_reference()
    for path in files:
        doc = answer(ref, path=path)
        with open(path[:-len(".scenario.json")] + ".expected.json", "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")


def main():
    args = sys.argv[1:]
    jobs = 1
    if args[:1] == ["-j"]:
        jobs, args = int(args[1]), args[2:]
    files = scenario_files(args)
    if jobs <= 1:
        run(files)
        return 0
    pids = []
    for k in range(jobs):
        part = files[k::jobs]
        pid = os.fork()
        if pid == 0:
            try:
                run(part)
            finally:
                os._exit(0)
        pids.append(pid)
    for pid in pids:
        os.waitpid(pid, 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
