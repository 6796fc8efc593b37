/**
 * The NUMA, CPU, memory page and PCI flavor extra specs (hw:*,
 * pci_passthrough:alias, resources[N]:*, trait[N]:*, group_policy) and image
 * properties (hw_*) that Nova's scheduler reads, with their legal values.
 * The rules are those of Nova Zed's API validators
 * (nova/api/validation/extra_specs/hw.py, pci_passthrough.py, resources.py,
 * traits.py, null.py) and ImageMetaProps' fields: only the syntax is checked
 * here, as nova-api does; combinations (a cpuset that does not cover every
 * vCPU, ...) are Nova's own errors at scheduling time.
 *
 * Pure and browser-safe: the flavor and image editors explain and check a
 * value live with the same functions the server and the import use.
 */

export interface HwSpecRule {
  /** Key, with N for a guest NUMA node number or group suffix. */
  key: string;
  /** What the value means. */
  help: string;
  /** Allowed values, for the editor's hint. */
  values: string;
  /** Why `value` is not legal, or null. */
  check: (value: string) => string | null;
  /** Short meaning of a legal value. */
  meaning: (value: string, match: RegExpMatchArray) => string;
}

/** Nova's cpu-set syntax ("0-3,^2"), the pattern of hw:numa_cpus.N and the masks. */
const CPU_SET = /^\^?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*$/;
/** hw:cpu_realtime_mask's pattern (leading ^ optional). */
const CPU_MASK = /^(\^)?\d+((-\d+)?(,\^?\d+(-\d+)?)?)*$/;
/** hw:mem_page_size: a keyword or a size with an optional unit. */
const PAGE_SIZE = /^(large|small|any|\d+([kKMGT]i?)?(b|bit|B)?)$/;
/** pci_passthrough:alias: "name:count[,name:count]". */
const PCI_ALIAS_REQUEST = /^[^:]+:\d+(?:\s*,\s*[^:]+:\d+)*$/;
/** Python's int() of a string. */
const PY_INT = /^\s*[+-]?\d+(_\d+)*\s*$/;
const TRUE_STRINGS = ["1", "t", "true", "on", "y", "yes"];
const FALSE_STRINGS = ["0", "f", "false", "off", "n", "no"];

const q = (v: string) => JSON.stringify(v.length > 40 ? `${v.slice(0, 37)}...` : v);

function oneOf(name: string, allowed: readonly string[]) {
  return (v: string) => (allowed.includes(v) ? null : `${name} must be one of ${allowed.join(", ")}, got ${q(v)}`);
}
/** A key (no regex characters) whose value is one of `options`. */
function choice(
  key: string,
  help: string,
  options: readonly string[],
  meaning: (value: string) => string,
): HwSpecRule & { pattern: RegExp } {
  return {
    key,
    pattern: new RegExp(`^${key}$`),
    help,
    values: options.join(" | "),
    check: oneOf(key, options),
    meaning,
  };
}
function intMin(name: string, min: number) {
  return (v: string) => {
    if (!PY_INT.test(v)) return `${name} must be a whole number >= ${min}, got ${q(v)}`;
    const n = Number(v.replace(/_/g, ""));
    return n < min ? `${name} must be a whole number >= ${min}, got ${q(v)}` : null;
  };
}
function boolLike(name: string) {
  return (v: string) =>
    [...TRUE_STRINGS, ...FALSE_STRINGS].includes(v.trim().toLowerCase())
      ? null
      : `${name} must be a boolean (yes/no, true/false, 1/0, on/off), got ${q(v)}`;
}
function pattern(name: string, re: RegExp, form: string) {
  return (v: string) => (re.test(v) ? null : `${name} must be ${form}, got ${q(v)}`);
}

/** Expand Nova's cpu-set syntax ("0-3,^2" -> [0, 1, 3]); null when it does not parse. */
export function parseCpuSet(spec: string): number[] | null {
  const include = new Set<number>();
  const exclude = new Set<number>();
  for (const raw of spec.split(",")) {
    const part = raw.trim();
    if (!part) continue;
    const neg = part.startsWith("^");
    const body = neg ? part.slice(1) : part;
    const m = /^(\d+)(?:-(\d+))?$/.exec(body);
    if (!m) return null;
    const lo = Number(m[1]);
    const hi = m[2] !== undefined ? Number(m[2]) : lo;
    if (hi < lo || hi - lo > 4096) return null;
    for (let c = lo; c <= hi; c++) (neg ? exclude : include).add(c);
  }
  return [...include].filter((c) => !exclude.has(c)).sort((a, b) => a - b);
}

/** Compact form of a CPU list: [0,1,2,5] -> "0-2,5". */
export function formatCpuList(cpus: readonly number[]): string {
  const s = [...cpus].sort((a, b) => a - b);
  const out: string[] = [];
  for (let i = 0; i < s.length; ) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    out.push(j > i ? `${s[i]}-${s[j]}` : `${s[i]}`);
    i = j + 1;
  }
  return out.join(",");
}

function cpuSetMeaning(v: string): string {
  const cpus = parseCpuSet(v);
  return cpus ? `CPUs ${cpus.join(", ") || "(none)"}` : v;
}

/** Nova's page size values: keywords or a size ("2MB", "1GB", "2048" KiB). */
export function describePageSize(v: string): string {
  if (v === "small") return "small pages (4 KiB), no huge pages";
  if (v === "large") return "huge pages of any size the host has (the largest that fits first)";
  if (v === "any") return "any page size, huge pages preferred";
  const m = /^(\d+)([kKMGT]i?)?(b|bit|B)?$/.exec(v);
  if (!m) return v;
  const n = Number(m[1]);
  const unit = (m[2] ?? "K").toUpperCase()[0];
  const kib = n * ({ K: 1, M: 1024, G: 1024 * 1024, T: 1024 ** 3 }[unit] ?? 1);
  return `pages of ${formatKib(kib)}`;
}

/** 4 -> "4 KiB", 2048 -> "2 MiB", 1048576 -> "1 GiB". */
export function formatKib(kib: number): string {
  if (kib >= 1024 * 1024 && kib % (1024 * 1024) === 0) return `${kib / (1024 * 1024)} GiB`;
  if (kib >= 1024 && kib % 1024 === 0) return `${kib / 1024} MiB`;
  return `${kib} KiB`;
}

export const CPU_POLICIES = ["shared", "dedicated", "mixed"] as const;
export const CPU_THREAD_POLICIES = ["prefer", "isolate", "require"] as const;
export const EMULATOR_THREADS_POLICIES = ["share", "isolate"] as const;
export const PCI_NUMA_POLICIES = ["required", "legacy", "preferred", "socket"] as const;

const CPU_POLICY_HELP: Record<string, string> = {
  shared: "guest vCPUs float over the host's shared CPUs (overcommit allowed)",
  dedicated: "each guest vCPU is pinned to its own dedicated host CPU (PCPU, no overcommit)",
  mixed: "some vCPUs pinned (hw:cpu_dedicated_mask), the others shared",
};
const THREAD_HELP: Record<string, string> = {
  prefer: "pin to SMT siblings when the host has them",
  isolate: "one vCPU per core; the core's other threads stay unused",
  require: "only hosts with SMT siblings; vCPUs pinned to thread siblings",
};
const PCI_POLICY_HELP: Record<string, string> = {
  required: "PCI devices must be on a NUMA node the guest uses",
  legacy: "as required, unless the device reports no NUMA node",
  preferred: "devices on the guest's NUMA nodes preferred, others allowed",
  socket: "devices must be on the same socket as a guest NUMA node",
};

/** Flavor extra spec rules, first match wins. */
export const HW_EXTRA_SPEC_RULES: (HwSpecRule & { pattern: RegExp })[] = [
  {
    key: "hw:numa_nodes",
    pattern: /^hw:numa_nodes$/,
    help: "number of guest NUMA nodes; guest vCPUs and RAM are split evenly unless hw:numa_cpus.N / hw:numa_mem.N say otherwise",
    values: "integer >= 1",
    check: intMin("hw:numa_nodes", 1),
    meaning: (v) => `${v.trim()} guest NUMA node(s)`,
  },
  {
    key: "hw:numa_cpus.N",
    pattern: /^hw:numa_cpus\.(\d+)$/,
    help: "guest vCPUs of guest NUMA node N (all of 0..vcpus-1 must be assigned exactly once)",
    values: 'cpu set, e.g. "0-3,^2"',
    check: pattern("hw:numa_cpus.N", CPU_SET, 'a cpu set like "0-3,^2"'),
    meaning: (v, m) => `guest node ${m[1]} gets vCPUs ${cpuSetMeaning(v).replace(/^CPUs /, "")}`,
  },
  {
    key: "hw:numa_mem.N",
    pattern: /^hw:numa_mem\.(\d+)$/,
    help: "RAM (MiB) of guest NUMA node N (the nodes' sum must be the flavor's RAM)",
    values: "integer MiB >= 1",
    check: intMin("hw:numa_mem.N", 1),
    meaning: (v, m) => `guest node ${m[1]} gets ${v.trim()} MiB`,
  },
  choice("hw:cpu_policy", "how guest vCPUs use host CPUs", CPU_POLICIES, (v) => CPU_POLICY_HELP[v]),
  {
    key: "hw:cpu_dedicated_mask",
    pattern: /^hw:cpu_dedicated_mask$/,
    help: 'with hw:cpu_policy=mixed: which vCPUs are pinned ("^0-1" = all but 0 and 1)',
    values: 'cpu set, e.g. "^0-1" or "2-3"',
    check: pattern("hw:cpu_dedicated_mask", CPU_SET, 'a cpu set like "2-3" or "^0-1"'),
    meaning: (v) => `pinned vCPUs: ${v.startsWith("^") ? `all but ${cpuSetMeaning(v.slice(1))}` : cpuSetMeaning(v)}`,
  },
  {
    key: "hw:cpu_realtime",
    pattern: /^hw:cpu_realtime$/,
    help: "real-time vCPUs (needs a dedicated or mixed CPU policy)",
    values: "yes | no (any boolean)",
    check: boolLike("hw:cpu_realtime"),
    meaning: (v) =>
      TRUE_STRINGS.includes(v.trim().toLowerCase()) ? "real-time priority for vCPUs" : "no real-time vCPUs",
  },
  {
    key: "hw:cpu_realtime_mask",
    pattern: /^hw:cpu_realtime_mask$/,
    help: 'vCPUs that are NOT real-time ("^0" = all but vCPU 0 are real-time)',
    values: 'cpu set, e.g. "^0-1"',
    check: pattern("hw:cpu_realtime_mask", CPU_MASK, 'a cpu set like "^0-1"'),
    meaning: (v) => `real-time mask ${v}`,
  },
  choice(
    "hw:cpu_thread_policy",
    "how pinned vCPUs use SMT thread siblings",
    CPU_THREAD_POLICIES,
    (v) => THREAD_HELP[v],
  ),
  choice(
    "hw:emulator_threads_policy",
    "where the emulator threads run (isolate takes one more dedicated host CPU)",
    EMULATOR_THREADS_POLICIES,
    (v) =>
      v === "isolate" ? "emulator threads on their own dedicated host CPU" : "emulator threads on the shared CPUs",
  ),
  {
    key: "hw:mem_page_size",
    pattern: /^hw:mem_page_size$/,
    help: "guest memory page size; any value other than small needs hosts with that many free pages per cell",
    values: "small | large | any | a size (2048, 2MB, 1GB)",
    check: pattern("hw:mem_page_size", PAGE_SIZE, "small, large, any or a size like 2048, 2MB or 1GB"),
    meaning: (v) => describePageSize(v),
  },
  choice(
    "hw:pci_numa_affinity_policy",
    "NUMA affinity of the guest's PCI devices",
    PCI_NUMA_POLICIES,
    (v) => PCI_POLICY_HELP[v],
  ),
  {
    key: "pci_passthrough:alias",
    pattern: /^pci_passthrough:alias$/,
    help: "PCI devices to pass through, by the profile's pci_alias names",
    values: '"name:count[,name:count]"',
    check: pattern(
      "pci_passthrough:alias",
      PCI_ALIAS_REQUEST,
      'name:count[,name:count] (e.g. "a100:2" or "a100:1,vf:2")',
    ),
    meaning: (v) =>
      v
        .split(",")
        .map((p) => {
          const [n, c] = p.split(":");
          return `${c.trim()} × ${n.trim()}`;
        })
        .join(", "),
  },
  {
    key: "resources[N]:CLASS",
    pattern: /^resources([a-zA-Z0-9_-]{1,64})?:([A-Z0-9_]+)$/,
    help: "amount of a Placement resource class (overrides the flavor's VCPU / MEMORY_MB / DISK_GB; 0 removes it)",
    values: "integer >= 0",
    check: (v) => (PY_INT.test(v) ? null : `resources:CLASS must be a whole number, got ${q(v)}`),
    meaning: (v, m) =>
      Number(v.replace(/_/g, "")) === 0
        ? `no ${m[2]} requested`
        : `${Number(v.replace(/_/g, ""))} of ${m[2]}${m[1] ? ` (group ${m[1]})` : ""}`,
  },
  {
    key: "trait[N]:NAME",
    pattern: /^trait([a-zA-Z0-9_-]{1,64})?:([A-Z0-9_]+)$/,
    help: "required or forbidden Placement trait of the host's provider",
    values: "required | forbidden",
    check: (v) =>
      v === "required" || v === "forbidden" ? null : `trait:NAME must be "required" or "forbidden", got ${q(v)}`,
    meaning: (v, m) => `the host must ${v === "forbidden" ? "not " : ""}have trait ${m[2]}`,
  },
  choice(
    "group_policy",
    "with granular resources[N]/trait[N] groups: whether groups may share a provider",
    ["none", "isolate"],
    (v) => (v === "isolate" ? "each numbered group on its own provider" : "groups may share a provider"),
  ),
];

/** Image properties (Glance) that shape the guest's NUMA/CPU/page/PCI request. */
export const HW_IMAGE_PROPERTY_RULES: (HwSpecRule & { pattern: RegExp })[] = [
  {
    key: "hw_numa_nodes",
    pattern: /^hw_numa_nodes$/,
    help: "number of guest NUMA nodes (a flavor's hw:numa_nodes wins)",
    values: "integer >= 1",
    check: intMin("hw_numa_nodes", 1),
    meaning: (v) => `${String(v).trim()} guest NUMA node(s)`,
  },
  {
    key: "hw_numa_cpus.N",
    pattern: /^hw_numa_cpus\.(\d+)$/,
    help: "guest vCPUs of guest NUMA node N",
    values: 'cpu set, e.g. "0-3"',
    check: pattern("hw_numa_cpus.N", CPU_SET, 'a cpu set like "0-3"'),
    meaning: (v, m) => `guest node ${m[1]} gets vCPUs ${cpuSetMeaning(v).replace(/^CPUs /, "")}`,
  },
  {
    key: "hw_numa_mem.N",
    pattern: /^hw_numa_mem\.(\d+)$/,
    help: "RAM (MiB) of guest NUMA node N",
    values: "integer MiB >= 1",
    check: intMin("hw_numa_mem.N", 1),
    meaning: (v, m) => `guest node ${m[1]} gets ${v} MiB`,
  },
  choice(
    "hw_cpu_policy",
    "how guest vCPUs use host CPUs (may not contradict the flavor's)",
    CPU_POLICIES,
    (v) => CPU_POLICY_HELP[v],
  ),
  choice(
    "hw_cpu_thread_policy",
    "how pinned vCPUs use SMT thread siblings",
    CPU_THREAD_POLICIES,
    (v) => THREAD_HELP[v],
  ),
  {
    key: "hw_cpu_realtime_mask",
    pattern: /^hw_cpu_realtime_mask$/,
    help: "vCPUs that are NOT real-time",
    values: 'cpu set, e.g. "^0"',
    check: pattern("hw_cpu_realtime_mask", CPU_MASK, 'a cpu set like "^0"'),
    meaning: (v) => `real-time mask ${v}`,
  },
  choice("hw_emulator_threads_policy", "where the emulator threads run", EMULATOR_THREADS_POLICIES, (v) =>
    v === "isolate" ? "emulator threads on their own host CPU" : "emulator threads shared",
  ),
  {
    key: "hw_mem_page_size",
    pattern: /^hw_mem_page_size$/,
    help: "guest memory page size (the flavor must allow it)",
    values: "small | large | any | a size",
    check: pattern("hw_mem_page_size", PAGE_SIZE, "small, large, any or a size like 2MB"),
    meaning: (v) => describePageSize(v),
  },
  choice(
    "hw_pci_numa_affinity_policy",
    "NUMA affinity of the guest's PCI devices",
    PCI_NUMA_POLICIES,
    (v) => PCI_POLICY_HELP[v],
  ),
];

export interface HwSpecInfo {
  rule: string;
  help: string;
  values: string;
  meaning: string | null;
  error: string | null;
}

function describeWith(rules: (HwSpecRule & { pattern: RegExp })[], key: string, value: string): HwSpecInfo | null {
  for (const r of rules) {
    const m = key.match(r.pattern);
    if (!m) continue;
    const error = r.check(value);
    return {
      rule: r.key,
      help: r.help,
      values: r.values,
      meaning: error ? null : r.meaning(value, m),
      error: error ? `value: ${error}` : null,
    };
  }
  return null;
}

/** Rule, meaning and error of a NUMA/CPU/page/PCI/Placement extra spec; null if none of these. */
export function describeHwExtraSpec(key: string, value: string): HwSpecInfo | null {
  return describeWith(HW_EXTRA_SPEC_RULES, key, value);
}

/** Rule, meaning and error of an hw_* image property; null if none of these. */
export function describeHwImageProperty(key: string, value: string | number | boolean): HwSpecInfo | null {
  return describeWith(HW_IMAGE_PROPERTY_RULES, key, String(value));
}

/** Every error of an image's hw_* properties. */
export function hwImagePropertyErrors(
  props: Record<string, string | number | boolean>,
): { key: string; error: string }[] {
  const out: { key: string; error: string }[] = [];
  for (const [k, v] of Object.entries(props)) {
    const info = describeHwImageProperty(k, v);
    if (info?.error) out.push({ key: k, error: info.error.replace(/^value: /, "") });
  }
  return out;
}
