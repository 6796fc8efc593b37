/** hardware.parse_cpu_spec, building the CPython set Nova builds. */
import { NovaError, pyInt, pyStrip } from "../python";
import { PySet } from "./pyset";

function int(text: string, what: string, rule: string): number {
  try {
    return pyInt(text);
  } catch {
    throw new NovaError("Invalid", `Invalid ${what} expression '${rule}'`);
  }
}

const range = (start: number, end: number): number[] => Array.from({ length: end - start + 1 }, (_, i) => start + i);

/** "0-3,^2,5" -> {0, 1, 3, 5}; raises Invalid for a malformed rule. */
export function parseCpuSpec(spec: string): PySet {
  const ids = new PySet();
  const rejects = new PySet();
  for (let rule of spec.split(",")) {
    rule = pyStrip(rule);
    if (!rule.length) continue;
    const dash = rule.indexOf("-");
    if (dash >= 0) {
      let first = rule.slice(0, dash);
      const reject = first.startsWith("^");
      if (reject) first = first.slice(1);
      const start = int(first, "range", rule);
      const end = int(rule.slice(dash + 1), "range", rule);
      if (start > end) throw new NovaError("Invalid", `Invalid range expression '${rule}'`);
      (reject ? rejects : ids).merge(PySet.of(range(start, end)));
    } else if (rule[0] === "^") {
      rejects.add(int(rule.slice(1), "exclusion", rule));
    } else {
      ids.add(int(rule, "inclusion", rule));
    }
  }
  ids.differenceUpdate(rejects);
  return ids;
}
