"""What the conformance tools share: Nova's filter and weigher names, the
scenario files a PATH argument means, how a seeded generator writes its
files and varies a host's service, and nova_reference.py imported once
and called per scenario (stdlib only; Nova itself is imported only by
load_reference()).

Importers put this folder on sys.path with sys.dont_write_bytecode set, so
no __pycache__ lands in the repository.
"""
import glob
import io
import json
import os
import sys

# Zed's filters that every generator may pick from; the NUMA and PCI ones are
# added separately (they need host topologies to say anything).
FILTERS = [
    "AllHostsFilter", "ComputeFilter", "AvailabilityZoneFilter",
    "ComputeCapabilitiesFilter", "ImagePropertiesFilter",
    "ServerGroupAntiAffinityFilter", "ServerGroupAffinityFilter",
    "AggregateInstanceExtraSpecsFilter", "NumInstancesFilter",
    "AggregateNumInstancesFilter", "IoOpsFilter", "AggregateIoOpsFilter",
    "DifferentHostFilter", "SameHostFilter", "SimpleCIDRAffinityFilter",
    "IsolatedHostsFilter", "JsonFilter", "AggregateTypeAffinityFilter",
    "AggregateMultiTenancyIsolation", "AggregateImagePropertiesIsolation",
    "MetricsFilter",
]
EXTRA_FILTERS = ["PciPassthroughFilter", "NUMATopologyFilter"]

# Zed's weighers, in the order the examples use when they list every weigher
WEIGHERS = [
    "RAMWeigher", "CPUWeigher", "DiskWeigher", "IoOpsWeigher",
    "MetricsWeigher", "PCIWeigher", "ServerGroupSoftAffinityWeigher",
    "ServerGroupSoftAntiAffinityWeigher", "BuildFailureWeigher",
    "CrossCellWeigher",
]

REF = os.environ.get("NOVA_REFERENCE",
                     os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "..",
                                  "shared", "nova-reference", "nova_reference.py"))

# nova.conf groups whose overrides a scenario may set (nova_reference.py's
# config keys); all are cleared between two scenarios in one process.
CONF_GROUPS = (None, "filter_scheduler", "metrics", "scheduler",
               "workarounds", "pci", "compute")


def scenario_files(paths):
    """Scenario files and directories (every *.scenario.json inside, sorted)."""
    out = []
    for p in paths:
        if os.path.isdir(p):
            out += sorted(glob.glob(os.path.join(p, "*.scenario.json")))
        else:
            out.append(p)
    return out


def write_if_changed(path, text):
    """Leave identical files alone so make-fixtures.py skips them."""
    try:
        with open(path) as f:
            if f.read() == text:
                return False
    except OSError:
        pass
    with open(path, "w") as f:
        f.write(text)
    return True


def seeded_main(description, prefix, scenario_at, sort_keys=False):
    """The command line of a seeded generator: --seed N --count K --out DIR
    [--prefix P] [--start I]; scenario_at(seed, i) is scenario i, which
    depends only on (seed, i), written to DIR/<prefix><i:04>.scenario.json."""
    import argparse
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--seed", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--prefix", default=prefix)
    ap.add_argument("--start", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.start, args.start + args.count):
        path = os.path.join(args.out, "%s%04d.scenario.json" % (args.prefix, i))
        doc = scenario_at(args.seed, i)
        write_if_changed(path, json.dumps(doc, indent=1, sort_keys=sort_keys) + "\n")


def vary_service(rng, host, down_below, cell_chance):
    """A random host's compute service: disabled 8% of the time, down
    while the same draw is under down_below, in cell2 with cell_chance."""
    r = rng.random()
    if r < 0.08:
        host["service"] = {"disabled": True, "disabled_reason": "maintenance"}
    elif r < down_below:
        host["service"] = {"up": False}
    if rng.random() < cell_chance:
        host["cell"] = "cell2"


def load_reference():
    """nova_reference.py as a module (Nova is imported once, ~1 s)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("nova_reference", REF)
    ref = importlib.util.module_from_spec(spec)
    # Placement scenarios are handed to placement_reference.py beside it,
    # which must find this very module (one Nova, one CONF).
    sys.modules["nova_reference"] = ref
    sys.path.insert(0, os.path.dirname(os.path.abspath(REF)))
    sys.argv = [REF]
    spec.loader.exec_module(ref)
    return ref


def answer(ref, path=None, scenario=None):
    """Nova's result for one scenario (a file, or a document on stdin), without timing."""
    for group in CONF_GROUPS:
        opts = ref.CONF[group] if group else ref.CONF
        for name in list(opts):
            try:
                ref.CONF.clear_override(name, group=group)
            except Exception:  # not an option (a group)
                pass
    # a move's echo is kept for error documents: never a previous scenario's
    if getattr(ref, "_MOVE", None):
        del ref._MOVE[:]
    sys.argv = [REF] if path is None else [REF, path]
    real_in, real_out = sys.stdin, sys.stdout
    if scenario is not None:
        sys.stdin = io.StringIO(json.dumps(scenario))
    sys.stdout = buf = io.StringIO()
    try:
        ref.main()
    finally:
        sys.stdin, sys.stdout = real_in, real_out
    doc = json.loads(buf.getvalue())
    doc.pop("timing", None)
    return doc


def load_tool(name, file):
    """A sibling script whose file name has a dash (generate-numa.py), as a module."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(name, os.path.join(os.path.dirname(os.path.abspath(__file__)), file))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
