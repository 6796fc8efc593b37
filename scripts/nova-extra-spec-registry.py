#!/usr/bin/env python3
"""Print lib/catalog/extra-spec-registry.json from the installed Nova's extra spec
validator registry (nova/api/validation/extra_specs/). The trait and resource
class validators, one per os-traits / os-resource-classes name, are written
as their name lists' patterns; lib/scheduler/placement/standard-names.ts has
the names. Run: /usr/bin/python3 scripts/nova-extra-spec-registry.py >
lib/catalog/extra-spec-registry.json
"""
import json
import re
import warnings

warnings.filterwarnings("ignore")
from nova.api.validation.extra_specs import validators  # noqa: E402


def js_regex(py: str) -> str:
    return py.replace("(?P<", "(?<")


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    m = re.match(r"(.+?\.)(\s|$)", text)
    return m.group(1) if m else text


# One row stands for all the validators of a name family (one per trait / resource class).
FAMILIES = {"trait{group}:": "traits", "resources{group}:": "resources"}

rows = []
seen = set()
for name, v in validators.VALIDATORS.items():
    family = next((kind for prefix, kind in FAMILIES.items() if name.startswith(prefix)), None)
    if family:
        if family not in seen:
            seen.add(family)
            rows.append({"kind": family})
        continue
    value = {"type": v.value["type"].__name__}
    for k in ("enum", "pattern", "min", "max"):
        if k in v.value:
            value[k] = list(v.value[k]) if k == "enum" else v.value[k]
    if "pattern" in value:
        value["pattern"] = js_regex(value["pattern"])
    rows.append(
        {
            "name": name,
            "regex": js_regex(v.name_regex),
            "value": value,
            "description": first_sentence(v.description),
            **({"deprecated": True} if v.deprecated else {}),
        }
    )

# One row a line: a compact table that lib/catalog/extra-spec-registry.ts
# types and reads, so the generated part holds data and no code.
print("{")
print(f'  "namespaces": {json.dumps([js_regex(n) for n in sorted(validators.NAMESPACES)])},')
print('  "validators": [')
print(",\n".join(f"    {json.dumps(r)}" for r in rows))
print("  ]")
print("}")
