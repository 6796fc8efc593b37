/**
 * nova.conf <-> scheduler profile config (the scenario `config` object).
 *
 * Parsing follows oslo.config's INI reader: `[section]` headers, `#` and `;`
 * comment lines (a `#` later on a line is part of the value), `key = value`
 * or `key: value`, indented continuation lines, the last value of an option
 * wins except for MultiStrOpt options such as `[pci] alias`, which collect
 * every line. Values are converted as the option types do (BoolOpt accepts
 * true/false, yes/no, on/off, 1/0; ListOpt splits on commas).
 *
 * Every option Nova Zed defines in [filter_scheduler], [scheduler],
 * [metrics] and [pci] is known: the ones the scheduler reads become config
 * keys, the others are reported as not modelled, and anything else in those
 * sections is reported as unknown. Config keys Nova has no option for
 * (Schedscope's own, e.g. `placement_prefilters`) travel in a
 * `[schedscope]` section, which Nova ignores.
 */
import { checkProfileConfig, NOVA_RELEASES, type NovaRelease } from "@/lib/scenario/schema";
import { DEFAULT_ENABLED_FILTERS } from "@/lib/scheduler/config";

type OptType = "int" | "float" | "bool" | "str" | "strOrNone" | "list" | "weighers" | "multiAlias" | "metricsSetting";

interface OptionMap {
  section: string;
  option: string;
  key: string;
  type: OptType;
  default: unknown;
}

/** One option of nova.conf; its config key is the option's name unless said otherwise. */
function option(section: string, name: string, type: OptType, dflt: unknown, key = name): OptionMap {
  return { section, option: name, key, type, default: dflt };
}

/** Nova's option -> the profile config key (names from nova/conf/{scheduler,pci,compute,workarounds}.py). */
export const NOVA_CONF_OPTIONS: OptionMap[] = [
  option("DEFAULT", "default_availability_zone", "str", "nova"),
  // the conductor's: live-migrate's retry loop (conductor/tasks/live_migrate.py)
  option("DEFAULT", "migrate_max_retries", "int", -1),
  option("filter_scheduler", "host_subset_size", "int", 1),
  option("filter_scheduler", "max_io_ops_per_host", "int", 8),
  option("filter_scheduler", "max_instances_per_host", "int", 50),
  option("filter_scheduler", "enabled_filters", "list", DEFAULT_ENABLED_FILTERS),
  option("filter_scheduler", "weight_classes", "weighers", "all", "weighers"),
  option("filter_scheduler", "ram_weight_multiplier", "float", 1.0),
  option("filter_scheduler", "cpu_weight_multiplier", "float", 1.0),
  option("filter_scheduler", "disk_weight_multiplier", "float", 1.0),
  option("filter_scheduler", "io_ops_weight_multiplier", "float", -1.0),
  option("filter_scheduler", "pci_weight_multiplier", "float", 1.0),
  option("filter_scheduler", "soft_affinity_weight_multiplier", "float", 1.0),
  option("filter_scheduler", "soft_anti_affinity_weight_multiplier", "float", 1.0),
  option("filter_scheduler", "build_failure_weight_multiplier", "float", 1000000.0),
  option("filter_scheduler", "cross_cell_move_weight_multiplier", "float", 1000000.0),
  // 2024.1 options the engine also models (Zed ignores them)
  option("filter_scheduler", "hypervisor_version_weight_multiplier", "float", 1.0),
  option("filter_scheduler", "num_instances_weight_multiplier", "float", 0.0),
  option("filter_scheduler", "shuffle_best_same_weighed_hosts", "bool", false),
  option("filter_scheduler", "image_properties_default_architecture", "strOrNone", null),
  option("filter_scheduler", "isolated_images", "list", []),
  option("filter_scheduler", "isolated_hosts", "list", []),
  option("filter_scheduler", "restrict_isolated_hosts_to_isolated_images", "bool", true),
  option("filter_scheduler", "aggregate_image_properties_isolation_namespace", "strOrNone", null),
  option("filter_scheduler", "aggregate_image_properties_isolation_separator", "str", "."),
  option("scheduler", "max_attempts", "int", 3),
  option("scheduler", "max_placement_results", "int", 1000),
  option("scheduler", "limit_tenants_to_placement_aggregate", "bool", false),
  option("scheduler", "placement_aggregate_required_for_tenants", "bool", false),
  option("scheduler", "query_placement_for_availability_zone", "bool", true),
  option("scheduler", "query_placement_for_image_type_support", "bool", false),
  option("scheduler", "enable_isolated_aggregate_filtering", "bool", false),
  option("scheduler", "image_metadata_prefilter", "bool", false),
  option("metrics", "weight_multiplier", "float", 1.0, "metrics_weight_multiplier"),
  option("metrics", "weight_setting", "metricsSetting", "", "metrics_weight_setting"),
  option("metrics", "required", "bool", true, "metrics_required"),
  option("metrics", "weight_of_unavailable", "float", -10000.0, "metrics_weight_of_unavailable"),
  option("pci", "alias", "multiAlias", [], "pci_alias"),
  option("compute", "packing_host_numa_cells_allocation_strategy", "bool", false),
  option("workarounds", "disable_fallback_pcpu_query", "bool", false),
];

/** Options Nova Zed defines in the scheduler's sections that the scheduler's decision does not depend on. */
export const NOT_MODELLED: Record<string, string[]> = {
  filter_scheduler: ["track_instance_changes", "available_filters"],
  scheduler: ["discover_hosts_in_cells_interval", "workers", "query_placement_for_routed_network_aggregates"],
  metrics: [],
  pci: ["device_spec", "passthrough_whitelist", "report_in_placement"],
};

/** Sections whose every option is accounted for (known, not modelled, or listed as unknown). */
export const READ_SECTIONS = ["filter_scheduler", "scheduler", "metrics", "pci"];

/** Config keys Nova has no option for: they travel in [schedscope], as JSON. */
export const SCHEDSCOPE_SECTION = "schedscope";

/** Deprecated names Nova still reads (oslo.config deprecated_opts), mapped to today's. */
const DEPRECATED: Record<string, [string, string]> = {
  "DEFAULT.pci_alias": ["pci", "alias"],
  "pci.passthrough_whitelist": ["pci", "device_spec"],
  "DEFAULT.pci_passthrough_whitelist": ["pci", "device_spec"],
};

/**
 * The [DEFAULT] names the scheduler options had before they moved to
 * [filter_scheduler] and [scheduler] (Pike, 16.0.0), which oslo.config kept
 * reading as deprecated names for some releases. Nova Zed's
 * nova/conf/scheduler.py (26.2.2, the reference) defines none of them, nor
 * does any later release: a Zed scheduler ignores them, and so does every
 * profile here. Reported as ignored, naming today's option.
 */
export const LEGACY_DEFAULT_NAMES: Record<string, [string, string]> = {
  scheduler_default_filters: ["filter_scheduler", "enabled_filters"],
  scheduler_weight_classes: ["filter_scheduler", "weight_classes"],
  scheduler_host_subset_size: ["filter_scheduler", "host_subset_size"],
  scheduler_available_filters: ["filter_scheduler", "available_filters"],
  scheduler_tracks_instance_changes: ["filter_scheduler", "track_instance_changes"],
  scheduler_max_attempts: ["scheduler", "max_attempts"],
  scheduler_driver: ["scheduler", "driver"],
  scheduler_host_manager: ["scheduler", "host_manager"],
  scheduler_driver_task_period: ["scheduler", "periodic_task_interval"],
  max_io_ops_per_host: ["filter_scheduler", "max_io_ops_per_host"],
  max_instances_per_host: ["filter_scheduler", "max_instances_per_host"],
  ram_weight_multiplier: ["filter_scheduler", "ram_weight_multiplier"],
  disk_weight_multiplier: ["filter_scheduler", "disk_weight_multiplier"],
  io_ops_weight_multiplier: ["filter_scheduler", "io_ops_weight_multiplier"],
  soft_affinity_weight_multiplier: ["filter_scheduler", "soft_affinity_weight_multiplier"],
  soft_anti_affinity_weight_multiplier: ["filter_scheduler", "soft_anti_affinity_weight_multiplier"],
  isolated_images: ["filter_scheduler", "isolated_images"],
  isolated_hosts: ["filter_scheduler", "isolated_hosts"],
  restrict_isolated_hosts_to_isolated_images: ["filter_scheduler", "restrict_isolated_hosts_to_isolated_images"],
  aggregate_image_properties_isolation_namespace: [
    "filter_scheduler",
    "aggregate_image_properties_isolation_namespace",
  ],
  aggregate_image_properties_isolation_separator: [
    "filter_scheduler",
    "aggregate_image_properties_isolation_separator",
  ],
  baremetal_scheduler_default_filters: ["filter_scheduler", "baremetal_enabled_filters"],
  scheduler_use_baremetal_filters: ["filter_scheduler", "use_baremetal_filters"],
};

/** What became of one option of the file (every option is reported). */
export interface OptionReport {
  /** "[section] option", or "[section] (N options)" for a section the scheduler does not read */
  option: string;
  line: number;
  status: "kept" | "ignored" | "unknown";
  /** kept: the profile key; ignored / unknown: why */
  detail: string;
}

const WEIGHER_MODULES: Record<string, string> = {
  RAMWeigher: "ram",
  CPUWeigher: "cpu",
  DiskWeigher: "disk",
  IoOpsWeigher: "io_ops",
  MetricsWeigher: "metrics",
  PCIWeigher: "pci",
  ServerGroupSoftAffinityWeigher: "affinity",
  ServerGroupSoftAntiAffinityWeigher: "affinity",
  BuildFailureWeigher: "compute",
  CrossCellWeigher: "cross_cell",
  HypervisorVersionWeigher: "hypervisor_version",
  NumInstancesWeigher: "num_instances",
};
const ALL_WEIGHERS = "nova.scheduler.weights.all_weighers";
const FILTER_PREFIX = "nova.scheduler.filters.";

// ---------------------------------------------------------------------------
// INI (oslo.config's iniparser)

export interface IniLine {
  section: string;
  key: string;
  value: string;
  line: number;
}

export function parseIni(text: string): { entries: IniLine[]; errors: string[] } {
  const entries: IniLine[] = [];
  const errors: string[] = [];
  let section = "DEFAULT";
  let last: IniLine | null = null;
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const n = i + 1;
    if (/^\s*$/.test(raw)) {
      last = null;
      return;
    }
    if (/^[#;]/.test(raw)) return;
    if (/^\s/.test(raw) && last) {
      // continuation line: oslo joins it to the value with a newline
      last.value += `\n${raw.trim()}`;
      return;
    }
    const line = raw.trim();
    if (line.startsWith("#") || line.startsWith(";")) return;
    if (line.startsWith("[")) {
      const m = /^\[([^\]]+)\]$/.exec(line);
      if (!m) {
        errors.push(`nova.conf line ${n}: a section header must be [name] (got ${JSON.stringify(line)})`);
        return;
      }
      section = m[1].trim();
      last = null;
      return;
    }
    const m = /^([^:=\s][^:=]*?)\s*[:=]\s*(.*)$/.exec(line);
    if (!m) {
      errors.push(`nova.conf line ${n}: expected "option = value" (got ${JSON.stringify(line)})`);
      return;
    }
    last = { section, key: m[1].trim().replace(/-/g, "_"), value: m[2], line: n };
    entries.push(last);
  });
  return { entries, errors };
}

// ---------------------------------------------------------------------------
// Values

const TRUE = new Set(["true", "1", "on", "yes"]);
const FALSE = new Set(["false", "0", "off", "no"]);

function pyFloatText(v: string): number | null {
  const t = v.trim().toLowerCase();
  if (/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/.test(t)) return Number(t);
  if (/^[+-]?(inf|infinity)$/.test(t)) return t.startsWith("-") ? -Infinity : Infinity;
  return null;
}

function listValue(v: string): string[] {
  return v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** The class name of a weight_classes entry ("nova.scheduler.weights.ram.RAMWeigher" -> RAMWeigher). */
function weigherName(path: string): string {
  return path.slice(path.lastIndexOf(".") + 1);
}

function convert(o: OptionMap, values: string[], where: string): { value?: unknown; error?: string } {
  const v = values[values.length - 1];
  switch (o.type) {
    case "int":
      if (!/^\s*[+-]?\d+\s*$/.test(v)) return { error: `${where}: must be an integer (got ${JSON.stringify(v)})` };
      return { value: Number(v) };
    case "float": {
      const f = pyFloatText(v);
      if (f === null || !Number.isFinite(f)) return { error: `${where}: must be a number (got ${JSON.stringify(v)})` };
      return { value: f };
    }
    case "bool": {
      const t = v.trim().toLowerCase();
      if (TRUE.has(t)) return { value: true };
      if (FALSE.has(t)) return { value: false };
      return { error: `${where}: must be a boolean: true/false, yes/no, on/off or 1/0 (got ${JSON.stringify(v)})` };
    }
    case "str":
      return { value: v };
    case "strOrNone":
      return { value: v === "" ? null : v };
    case "list":
      return { value: listValue(v).map((s) => (s.startsWith(FILTER_PREFIX) ? weigherName(s) : s)) };
    case "metricsSetting":
      return { value: v.trim() };
    case "weighers": {
      const list = listValue(v);
      if (list.length === 1 && list[0] === ALL_WEIGHERS) return { value: "all" };
      return { value: list.map(weigherName) };
    }
    case "multiAlias":
      return {
        value: values.flatMap((a) => {
          // [pci] alias is a JSON object per line (Nova also accepts a JSON list of them)
          try {
            const parsed = JSON.parse(a);
            return Array.isArray(parsed) ? parsed : [parsed];
          } catch {
            return [a];
          }
        }),
      };
  }
}

export interface NovaConfImport {
  config: Record<string, unknown>;
  errors: string[];
  /** Options in the scheduler's sections that Nova Zed does not define. */
  unknown: string[];
  /** Options Nova defines there that do not change the scheduler's decision. */
  notModelled: string[];
  /** Other sections present in the file (not read). */
  otherSections: string[];
  /** Every option of the file: kept (into which key), ignored (why) or unknown, in file order. */
  report: OptionReport[];
  /**
   * Set when the file is valid only in a later release than Zed (2023.1 PCI
   * aliases) and names no release: the releases that accept it, for the
   * operator to choose the one the cloud runs (importNovaConf's `release`).
   */
  releaseChoice?: NovaRelease[];
}

/** Releases whose [pci] alias schema has resource_class and traits. */
export const PCI_IN_PLACEMENT_RELEASES = NOVA_RELEASES.filter((r) => r !== "zed");

/** nova.conf text -> profile config. Errors name the section, option and rule. */
/**
 * `release`: the Nova release the operator chose for a file that names none
 * in [schedscope] nova_release (a file that names one keeps it; choosing
 * another is refused, so an import never changes answers unasked).
 */
export function importNovaConf(text: string, opts: { release?: NovaRelease } = {}): NovaConfImport {
  const { entries, errors } = parseIni(text);
  const bySlot = new Map<string, { values: string[]; line: number }>();
  for (const e of entries) {
    const dep = DEPRECATED[`${e.section}.${e.key}`];
    const [section, key] = dep ?? [e.section, e.key];
    const slot = `${section}.${key}`;
    const o = NOVA_CONF_OPTIONS.find((x) => x.section === section && x.option === key);
    const cur = bySlot.get(slot);
    if (cur && o?.type === "multiAlias") cur.values.push(e.value);
    else bySlot.set(slot, { values: [e.value], line: e.line });
  }

  const config: Record<string, unknown> = {};
  const unknown: string[] = [];
  const notModelled: string[] = [];
  const other = new Set<string>();
  const report: OptionReport[] = [];
  const otherCount = new Map<string, { n: number; line: number }>();
  const deprecatedUsed = new Map<string, string>(); // today's slot -> the deprecated name read into it
  for (const e of entries) {
    const dep = DEPRECATED[`${e.section}.${e.key}`];
    if (dep) deprecatedUsed.set(`${dep[0]}.${dep[1]}`, `[${e.section}] ${e.key}`);
  }
  for (const [slot, { values, line }] of bySlot) {
    const dot = slot.indexOf(".");
    const section = slot.slice(0, dot);
    const key = slot.slice(dot + 1);
    const name = `[${section}] ${key}`;
    const where = `${name} (line ${line})`;
    if (section === SCHEDSCOPE_SECTION) {
      try {
        config[key] = JSON.parse(values[values.length - 1]);
        report.push({ option: name, line, status: "kept", detail: `${key} (Schedscope's own setting)` });
      } catch {
        errors.push(`${where}: must be a JSON value (got ${JSON.stringify(values[values.length - 1])})`);
      }
      continue;
    }
    const o = NOVA_CONF_OPTIONS.find((x) => x.section === section && x.option === key);
    const legacy = section === "DEFAULT" ? LEGACY_DEFAULT_NAMES[key] : undefined;
    if (o) {
      const r = convert(o, values, where);
      if (r.error) errors.push(r.error);
      else {
        config[o.key] = r.value;
        const dep = deprecatedUsed.get(slot);
        report.push({
          option: dep ?? name,
          line,
          status: "kept",
          detail: dep ? `${o.key} (deprecated name of ${name}, which Nova Zed still reads)` : o.key,
        });
      }
    } else if (legacy) {
      report.push({
        option: name,
        line,
        status: "ignored",
        detail: `the [DEFAULT] name [${legacy[0]}] ${legacy[1]} had before Pike moved it; Nova Zed and later no longer read it (set [${legacy[0]}] ${legacy[1]})`,
      });
    } else if (READ_SECTIONS.includes(section)) {
      if (NOT_MODELLED[section]?.includes(key)) {
        notModelled.push(name);
        report.push({ option: name, line, status: "ignored", detail: "does not change where the scheduler places" });
      } else {
        unknown.push(name);
        report.push({ option: name, line, status: "unknown", detail: "not a Nova Zed option of this section" });
      }
    } else {
      other.add(section);
      const c = otherCount.get(section);
      if (c) c.n++;
      else otherCount.set(section, { n: 1, line });
    }
  }
  for (const [section, { n, line }] of otherCount) {
    report.push({
      option: `[${section}] (${n} option${n === 1 ? "" : "s"})`,
      line,
      status: "ignored",
      detail: section === "DEFAULT" ? "not scheduler options" : "a section the scheduler does not read",
    });
  }
  report.sort((a, b) => a.line - b.line);
  // A real scheduler asks Placement (every Nova since Stein): the path without
  // it is only taken when the file's [schedscope] section says so.
  if (config.placement === undefined) config.placement = true;
  if (opts.release !== undefined) {
    const named = bySlot.get(`${SCHEDSCOPE_SECTION}.nova_release`);
    if (config.nova_release === undefined) {
      config.nova_release = opts.release;
      report.push({
        option: `[${SCHEDSCOPE_SECTION}] nova_release`,
        line: 0,
        status: "kept",
        detail: `nova_release = ${opts.release} (chosen on import: the file names no release)`,
      });
    } else if (config.nova_release !== opts.release) {
      errors.push(
        `[${SCHEDSCOPE_SECTION}] nova_release (line ${named?.line}): the file names ${JSON.stringify(config.nova_release)}, not the release chosen on import (${opts.release}); import it without choosing one, or change the file`,
      );
    }
  }
  // the same rules as the profile editor (checkProfileConfig), named by the file's option and line
  let later = false;
  for (const e of checkProfileConfig(config, "")) {
    const key = /^[a-z_]+/.exec(e)?.[0] ?? "";
    const o = NOVA_CONF_OPTIONS.find((x) => x.key === key);
    const at = o ? bySlot.get(`${o.section}.${o.option}`)?.line : undefined;
    const needsLater = /2023\.1 and later/.test(e) && config.nova_release === undefined;
    later ||= needsLater;
    const hint = needsLater
      ? ` (a 2023.1+ cloud: choose its Nova release on import, or add [${SCHEDSCOPE_SECTION}] nova_release = "2023.1")`
      : "";
    errors.push(o ? `[${o.section}] ${o.option}${at ? ` (line ${at})` : ""}${e.slice(key.length)}${hint}` : e + hint);
  }
  // a profile keeps the order Nova's options are documented in
  const ordered: Record<string, unknown> = {};
  for (const o of NOVA_CONF_OPTIONS) if (o.key in config) ordered[o.key] = config[o.key];
  for (const [k, v] of Object.entries(config)) if (!(k in ordered)) ordered[k] = v;
  return {
    config: ordered,
    errors,
    unknown,
    notModelled,
    otherSections: [...other].sort(),
    report,
    ...(later ? { releaseChoice: [...PCI_IN_PLACEMENT_RELEASES] } : {}),
  };
}

// ---------------------------------------------------------------------------
// Export

/** Python's repr() of a float, as oslo.config prints FloatOpt values. */
function pyFloatRepr(v: number): string {
  if (Number.isInteger(v) && Math.abs(v) < 1e16) return `${v}.0`;
  return String(v).replace(/e([+-])(\d)$/, "e$10$2");
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

function render(o: OptionMap, value: unknown): string[] {
  switch (o.type) {
    case "float":
      return [typeof value === "number" ? pyFloatRepr(value) : String(value)];
    case "int":
      return [String(value)];
    case "bool":
      return [value ? "true" : "false"];
    case "str":
    case "strOrNone":
      return [value === null ? "" : String(value)];
    case "list":
      return [(value as unknown[]).map(String).join(",")];
    case "metricsSetting":
      return [Array.isArray(value) ? value.map(String).join(", ") : String(value)];
    case "weighers":
      if (value === "all") return [ALL_WEIGHERS];
      return [
        (value as string[])
          .map((w) => (WEIGHER_MODULES[w] ? `nova.scheduler.weights.${WEIGHER_MODULES[w]}.${w}` : w))
          .join(","),
      ];
    case "multiAlias":
      return (value as unknown[]).map((a) => (typeof a === "string" ? a : JSON.stringify(a)));
  }
}

function isDefault(o: OptionMap, value: unknown): boolean {
  if (value === undefined) return true;
  if (o.type === "float" || o.type === "int") return Number(value) === o.default;
  if (o.type === "metricsSetting")
    return (Array.isArray(value) ? value.length === 0 : String(value).trim() === "") && o.default === "";
  return sameValue(value, o.default);
}

/**
 * A profile config -> a nova.conf fragment: Nova's section and option names,
 * only the values that differ from Nova's defaults.
 */
export function exportNovaConf(config: Record<string, unknown>, profileName?: string): string {
  const sections = new Map<string, string[]>();
  const add = (section: string, line: string) => {
    const list = sections.get(section) ?? [];
    list.push(line);
    sections.set(section, list);
  };
  const mapped = new Set<string>();
  for (const o of NOVA_CONF_OPTIONS) {
    mapped.add(o.key);
    const value = config[o.key];
    if (isDefault(o, value)) continue;
    for (const v of render(o, value)) add(o.section, `${o.option} = ${v}`);
  }
  const extra = Object.keys(config).filter((k) => !mapped.has(k) && k !== "placement" && config[k] !== undefined);
  // Imports take a file without the key as Placement on: only "filters only" needs saying.
  if (config.placement !== true) add(SCHEDSCOPE_SECTION, "placement = false");
  for (const k of extra) add(SCHEDSCOPE_SECTION, `${k} = ${JSON.stringify(config[k])}`);

  const out: string[] = [
    `# Scheduler options${profileName ? ` of the Schedscope profile "${profileName}"` : ""}: only the values that`,
    "# differ from Nova's defaults. Merge these sections into the scheduler host's nova.conf.",
  ];
  const order = ["DEFAULT", "filter_scheduler", "scheduler", "metrics", "pci", "compute", "workarounds"];
  for (const s of order) {
    const lines = sections.get(s);
    if (!lines) continue;
    out.push("", `[${s}]`, ...lines);
  }
  const own = sections.get(SCHEDSCOPE_SECTION);
  if (own) {
    out.push(
      "",
      "# Schedscope's own settings (no Nova option; Nova ignores this section).",
      `[${SCHEDSCOPE_SECTION}]`,
      ...own,
    );
  }
  return `${out.join("\n")}\n`;
}

/**
 * The config with Nova's default filled in for every option left out (the
 * metrics setting as one text, aliases as objects): two profiles that Nova
 * would run the same way compare equal.
 */
export function effectiveConfig(config: Record<string, unknown>): Record<string, unknown> {
  // the engine's own default: a config without the key schedules without Placement
  const out: Record<string, unknown> = { ...config, placement: config.placement === true };
  for (const o of NOVA_CONF_OPTIONS) {
    const v = config[o.key];
    if (v === undefined) out[o.key] = o.default;
    else if (o.type === "metricsSetting" && Array.isArray(v)) out[o.key] = v.map(String).join(", ");
    else if (o.type === "multiAlias" && Array.isArray(v)) {
      // an alias given as its JSON text is the same alias as the object (Nova parses the text)
      out[o.key] = v.map((a) => {
        if (typeof a !== "string") return a;
        try {
          return JSON.parse(a);
        } catch {
          return a;
        }
      });
    }
  }
  return out;
}

/** One line per reported option: "kept    [filter_scheduler] host_subset_size (line 4): host_subset_size". */
export function formatNovaConfReport(report: OptionReport[]): string[] {
  return report.map((r) => `${r.status.padEnd(7)} ${r.option} (line ${r.line}): ${r.detail}`);
}
