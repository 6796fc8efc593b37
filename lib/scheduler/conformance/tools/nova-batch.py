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
import glob
import io
import json
import os
import sys

REF = os.environ.get("NOVA_REFERENCE",
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "..", "shared", "nova-reference", "nova_reference.py"))


def scenarios(paths):
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(glob.glob(os.path.join(p, "*.scenario.json")))
        else:
            out.append(p)
    return out


def run(files):
    import importlib.util
    spec = importlib.util.spec_from_file_location("nova_reference", REF)
    ref = importlib.util.module_from_spec(spec)
    # Placement scenarios are handed to placement_reference.py beside it,
    # which must find this very module (one Nova, one CONF).
    sys.modules["nova_reference"] = ref
    sys.path.insert(0, os.path.dirname(os.path.abspath(REF)))
    sys.argv = [REF]
    spec.loader.exec_module(ref)
    for path in files:
        for group in (None, "filter_scheduler", "metrics", "scheduler",
                      "workarounds", "pci", "compute"):
            opts = ref.CONF[group] if group else ref.CONF
            for name in list(opts):
                try:
                    ref.CONF.clear_override(name, group=group)
                except Exception:  # not an option (a group)
                    pass
        sys.argv = [REF, path]
        buf = io.StringIO()
        real = sys.stdout
        sys.stdout = buf
        try:
            ref.main()
        finally:
            sys.stdout = real
        doc = json.loads(buf.getvalue())
        doc.pop("timing", None)
        with open(path[:-len(".scenario.json")] + ".expected.json", "w") as f:
            json.dump(doc, f, indent=1, sort_keys=True)
            f.write("\n")


def main():
    args = sys.argv[1:]
    jobs = 1
    if args[:1] == ["-j"]:
        jobs, args = int(args[1]), args[2:]
    files = scenarios(args)
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
