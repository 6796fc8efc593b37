#!/usr/bin/env python3
"""Nova's own verdicts on extra specs, for extra-spec-validators.test.ts: every
validator in nova-api's registry with valid and invalid sample values, plus
seeded typos of registry names. Prints [{"key", "value", "error"}] (error =
Nova's ValidationError message, or null when nova-api accepts the spec)."""
import json
import random
import sys
import warnings

warnings.filterwarnings("ignore")
from nova import exception  # noqa: E402
from nova.api.validation.extra_specs import validators  # noqa: E402

TYPOS = int(sys.argv[1]) if len(sys.argv) > 1 else 50
SEED = int(sys.argv[2]) if len(sys.argv) > 2 else 25

PARAMS = {"num": ["0", "3"], "key": ["ssd"], "filter": ["", ":vendor"], "group": ["", "1", "_gpu"],
          "resource": ["FOO"], "trait": ["FOO_BAR"], "id": ["0"]}
STR_SAMPLES = ["0-3,^2", "^0", "large", "2MB", "1GiB", "huge", "a100:2", "a100:1, vf:2", "a100", "ns1,ns2",
               "", "anything", "x y"]
INT_SAMPLES = ["0", "1", "8", "9", "-1", "+5", " 7 ", "1_000", "1.5", "abc", ""]
BOOL_SAMPLES = ["true", "False", " yes ", "1", "off", "maybe", ""]


def names_of(v):
    out = [v.name]
    for p in v.parameters:
        out = [n.replace("{" + p["name"] + "}", s) for n in out for s in PARAMS.get(p["name"], ["x"])]
    return out


def values_of(v):
    t = v.value["type"]
    if t is int:
        extra = [str(v.value["max"] + 1)] if "max" in v.value else []
        return INT_SAMPLES + extra
    if t is bool:
        return BOOL_SAMPLES
    if "enum" in v.value:
        return [str(x) for x in v.value["enum"]] + ["bogus", v.value["enum"][0].upper()]
    if "pattern" in v.value:
        return STR_SAMPLES
    return ["anything", ""]


def verdict(key, value):
    try:
        validators.validate(key, value)
        return None
    except exception.ValidationError as e:
        return str(e)


cases = []
for v in validators.VALIDATORS.values():
    for key in names_of(v):
        for value in values_of(v):
            cases.append({"key": key, "value": value, "error": verdict(key, value)})

rng = random.Random(SEED)
registry = sorted({n for v in validators.VALIDATORS.values() for n in names_of(v)})
letters = "abcdefghijklmnopqrstuvwxyz_"
typos = {"hw:cpu_polcy"}
while len(typos) < TYPOS:
    name = rng.choice(registry)
    i = rng.randrange(len(name))
    kind = rng.randrange(4)
    if kind == 0:
        typo = name[:i] + name[i + 1:]
    elif kind == 1 and i + 1 < len(name):
        typo = name[:i] + name[i + 1] + name[i] + name[i + 2:]
    elif kind == 2:
        typo = name[:i] + rng.choice(letters) + name[i:]
    else:
        typo = name[:i] + rng.choice(letters) + name[i + 1:]
    if typo and typo not in registry:
        typos.add(typo)
for key in sorted(typos):
    for value in ["shared", "1"]:
        cases.append({"key": key, "value": value, "error": verdict(key, value), "typo": True})

json.dump(cases, sys.stdout)
