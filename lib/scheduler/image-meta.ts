/**
 * ImageMetaProps as Nova builds it from an image's properties: known fields
 * are typed and validated (an invalid value fails the whole request with
 * ValueError), legacy names are mapped, unknown properties are dropped.
 */
import {
  IMAGE_META_FIELDS,
  IMAGE_META_FIELD_ORDER,
  type ImageFieldKind,
  LEGACY_IMAGE_PROPERTIES,
} from "./image-meta-fields";
import { IMAGE_META_CHANGES } from "./image-meta-releases";
import { NOVA_RELEASES, type NovaRelease } from "./releases";

/** One release's ImageMetaProps: its fields and their declaration order. */
export interface ImageMetaTable {
  fields: Record<string, { kind: ImageFieldKind; values?: string[] }>;
  order: readonly string[];
}

const TABLES = new Map<NovaRelease, ImageMetaTable>();

/**
 * ImageMetaProps of a Nova release: Zed's fields with every later release's
 * additions up to it (image-meta-releases.ts, read from each release's
 * nova/objects/image_meta.py): a field a release does not know is no
 * property of it (from_dict ignores it), a value its enum does not list is
 * a ValueError.
 */
export function imageMetaTable(release: NovaRelease = "zed"): ImageMetaTable {
  let t = TABLES.get(release);
  if (t) return t;
  const fields = { ...IMAGE_META_FIELDS };
  let order: readonly string[] = IMAGE_META_FIELD_ORDER;
  for (const r of NOVA_RELEASES.slice(0, NOVA_RELEASES.indexOf(release) + 1)) {
    Object.assign(fields, IMAGE_META_CHANGES[r].fields);
    order = IMAGE_META_CHANGES[r].order ?? order;
  }
  t = { fields, order };
  TABLES.set(release, t);
  return t;
}
import { canonicalizeArch, canonicalizeHvType, canonicalizeVmMode } from "./nova-fields";
import { NovaError, PyObject, type PyValue, pyInt, pyStr, pyStrAt } from "./python";
import { parseCpuSpec } from "./numa/cpu-spec";
import { PySet } from "./numa/pyset";

export type ImageProps = Map<string, PyValue>;

const TRUE_STRINGS = new Set(["1", "t", "true", "on", "y", "yes"]);

// distutils.version.StrictVersion
const STRICT_VERSION = /^(\d+)\.(\d+)(\.(\d+))?([ab](\d+))?$/;
export type StrictVersion = [number, number, number, string, number];

export function parseStrictVersion(s: string): StrictVersion {
  const m = STRICT_VERSION.exec(s);
  if (!m) throw new NovaError("ValueError", `invalid version number '${s}'`);
  return [Number(m[1]), Number(m[2]), m[4] ? Number(m[4]) : 0, m[5] ? m[5][0] : "~", m[6] ? Number(m[6]) : 0];
}

export function compareStrictVersion(a: StrictVersion, b: StrictVersion): number {
  for (let i = 0; i < 5; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

/**
 * packaging.version.Version's sort key (PEP 440): epoch, release without
 * trailing zeros, pre-release, post-release, dev-release, local label.
 */
export type Pep440Version = [number, number[], [number, string, number], number, number, Array<[number, string]>];

const PEP440 =
  /^\s*v?(?:(?:(\d+)!)?(\d+(?:\.\d+)*)(?:[-_.]?(a|b|c|rc|alpha|beta|pre|preview)[-_.]?(\d+)?)?((?:-(\d+))|(?:[-_.]?(post|rev|r)[-_.]?(\d+)?))?(?:[-_.]?(dev)[-_.]?(\d+)?)?)(?:\+([a-z0-9]+(?:[-_.][a-z0-9]+)*))?\s*$/i;
const PRE_LETTER: Record<string, string> = { alpha: "a", beta: "b", c: "rc", pre: "rc", preview: "rc" };

/** packaging.version.Version(s); InvalidVersion (a ValueError) when it is no PEP 440 version. */
export function parsePep440Version(s: string): Pep440Version {
  const m = PEP440.exec(s);
  if (!m) throw new NovaError("ValueError", `Invalid version: '${s}'`);
  const release = m[2].split(".").map(Number);
  while (release.length > 1 && release[release.length - 1] === 0) release.pop();
  const hasPost = m[5] !== undefined;
  const post = hasPost ? Number(m[6] ?? m[8] ?? 0) : Number.NEGATIVE_INFINITY;
  const hasDev = m[9] !== undefined;
  const dev = hasDev ? Number(m[10] ?? 0) : Number.POSITIVE_INFINITY;
  let pre: [number, string, number];
  if (m[3] !== undefined) {
    const letter = m[3].toLowerCase();
    pre = [0, PRE_LETTER[letter] ?? letter, Number(m[4] ?? 0)];
  } else pre = !hasPost && hasDev ? [-1, "", 0] : [1, "", 0];
  // local segments: numbers sort after strings, strings among themselves
  const local = m[11]
    ? m[11]
        .toLowerCase()
        .split(/[-_.]/)
        .map((p): [number, string] => (/^\d+$/.test(p) ? [Number(p), ""] : [Number.NEGATIVE_INFINITY, p]))
    : [];
  return [Number(m[1] ?? 0), release, pre, post, dev, local];
}

function cmp<T extends number | string>(a: T, b: T): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function comparePep440Version(a: Pep440Version, b: Pep440Version): number {
  let c = cmp(a[0], b[0]);
  if (c) return c;
  for (let i = 0; i < Math.max(a[1].length, b[1].length); i++) {
    if (i >= a[1].length) return -1;
    if (i >= b[1].length) return 1;
    if ((c = cmp(a[1][i], b[1][i]))) return c;
  }
  for (let i = 0; i < 3; i++) if ((c = cmp(a[2][i], b[2][i]))) return c;
  if ((c = cmp(a[3], b[3])) || (c = cmp(a[4], b[4]))) return c;
  // no local label sorts first; then segment by segment, a longer label after its prefix
  if (!a[5].length || !b[5].length) return cmp(a[5].length, b[5].length);
  for (let i = 0; i < Math.min(a[5].length, b[5].length); i++) {
    if ((c = cmp(a[5][i][0], b[5][i][0])) || (c = cmp(a[5][i][1], b[5][i][1]))) return c;
  }
  return cmp(a[5].length, b[5].length);
}

/** A parsed img_hv_requested_version: each clause's operator and how a version compares with its operand. */
export type VersionPredicate = Array<[string, (version: string) => number]>;

/**
 * img_hv_requested_version as a predicate: distutils.versionpredicate's
 * StrictVersion clauses up to 2024.2, oslo_utils.versionutils.VersionPredicate's
 * packaging (PEP 440) versions since 2025.1 (Python 3.12 has no distutils).
 * A bad clause is the ValueError ImageMetaProps raises.
 */
export function parseVersionPredicate(value: string, pep440 = false): VersionPredicate {
  const bad = () =>
    new NovaError("ValueError", `Version ${value} is not a valid predicate in field img_hv_requested_version`);
  const clauses = pep440 ? value.split(",") : value.trim().split(",");
  return clauses.map((part) => {
    const m = (pep440 ? /^\s*(<=|>=|<|>|!=|==)\s*(\S+)\s*$/ : /^\s*(<=|>=|<|>|!=|==)\s*([^\s,]+)\s*$/).exec(part);
    if (!m) throw bad();
    try {
      if (pep440) {
        const operand = parsePep440Version(m[2]);
        return [m[1], (v: string) => comparePep440Version(parsePep440Version(v), operand)];
      }
      const operand = parseStrictVersion(m[2]);
      return [m[1], (v: string) => compareStrictVersion(parseStrictVersion(v), operand)];
    } catch {
      throw bad();
    }
  });
}

/** Whether a version ("6.2.0") satisfies every clause. */
export function versionSatisfies(pred: VersionPredicate, version: string): boolean {
  for (const [op, compare] of pred) {
    const c = compare(version);
    const ok =
      op === "<"
        ? c < 0
        : op === "<="
          ? c <= 0
          : op === ">"
            ? c > 0
            : op === ">="
              ? c >= 0
              : op === "=="
                ? c === 0
                : c !== 0;
    if (!ok) return false;
  }
  return true;
}

/** oslo_utils.versionutils.convert_version_to_str */
export function versionIntToStr(v: number): string {
  const parts: string[] = [];
  let n = v;
  while (n !== 0) {
    const d = n - Math.floor(n / 1000) * 1000;
    parts.unshift(String(d));
    n = Math.floor(n / 1000);
  }
  return parts.join(".");
}

// Enums whose coerce() lower-cases first (and maps legacy spellings).
const LOWERING_ENUMS: Record<string, Record<string, string>> = {
  os_type: {},
  hw_scsi_model: { lsilogicsas: "lsisas1068", paravirtual: "vmpvscsi" },
  hw_vif_model: {
    virtuale1000: "e1000",
    virtuale1000e: "e1000e",
    virtualpcnet32: "pcnet",
    virtualsriovethernetcard: "sriov",
    virtualvmxnet: "vmxnet",
    virtualvmxnet3: "vmxnet3",
  },
};

function noLower(key: string, raw: unknown): NovaError {
  const type =
    typeof raw === "boolean"
      ? "bool"
      : typeof raw === "number"
        ? Number.isInteger(raw)
          ? "int"
          : "float"
        : typeof raw;
  return new NovaError("AttributeError", `${key}: '${type}' object has no attribute 'lower'`);
}

/** Python int() of a JSON value: numbers truncate, booleans are 0/1, text must be an integer. */
function pyIntOf(raw: unknown, str: string): number {
  if (typeof raw === "boolean") return raw ? 1 : 0;
  if (typeof raw === "number") return Math.trunc(raw);
  return pyInt(str);
}

/**
 * Type an image property as its Nova field's coerce() does; `text` is str()
 * of the value as Nova sees it. Invalid values raise (ValueError, or
 * AttributeError where Nova calls .lower() on a non-string).
 */
function coerce(key: string, raw: unknown, text: string | undefined, options: ImagePropsOptions): PyValue {
  const field = imageMetaTable(options.release).fields[key];
  const str = text ?? (typeof raw === "string" ? raw : pyStr(raw as PyValue));
  switch (field.kind) {
    case "arch":
    case "hv_type":
    case "vm_mode":
      if (typeof raw !== "string") throw noLower(key, raw);
      return field.kind === "arch"
        ? canonicalizeArch(str)
        : field.kind === "hv_type"
          ? canonicalizeHvType(str)
          : canonicalizeVmMode(str);
    case "enum": {
      let v = str;
      const lowering = LOWERING_ENUMS[key];
      if (lowering) {
        if (typeof raw !== "string") throw noLower(key, raw);
        v = raw.toLowerCase();
        v = lowering[v] ?? v;
      } else if (typeof raw !== "string") {
        // `value not in valid_values`: no number or bool is one of the strings
        throw new NovaError("ValueError", `Field value ${str} is invalid`);
      }
      if (!field.values!.includes(v)) throw new NovaError("ValueError", `Field value ${v} is invalid`);
      return v;
    }
    case "int":
      return pyIntOf(raw, str);
    case "bool":
      return typeof raw === "boolean" ? raw : TRUE_STRINGS.has(str.trim().toLowerCase());
    case "string":
      if (key === "img_hv_requested_version") parseVersionPredicate(str, options.pep440VersionPredicates);
      return str;
    default:
      // list fields (img_mappings, img_block_device_mapping): a JSON scalar is no list
      throw new NovaError("ValueError", `A list is required in field ${key}, not ${typeof raw}`);
  }
}

/** ImageMetaProps._set_numa_mem / _set_numa_cpus: "hw_numa_mem.0", ".1", ... */
function numaList(properties: Record<string, unknown>, key: "hw_numa_mem" | "hw_numa_cpus"): PyValue | undefined {
  const items: string[] = [];
  for (let cell = 0; cell < 128 && `${key}.${cell}` in properties; cell++) {
    const raw = properties[`${key}.${cell}`];
    if (key === "hw_numa_mem") items.push(String(pyIntOf(raw, pyStrAt(properties, `${key}.${cell}`))));
    else {
      if (typeof raw !== "string")
        throw new NovaError("AttributeError", `${key}.${cell}: '${typeof raw}' object has no attribute 'split'`);
      // the field coerces each set (SetOfIntegersField): its repr is in CPython set order
      const cpus = PySet.coerce(parseCpuSpec(raw)).values();
      items.push(cpus.length ? `CoercedSet({${cpus.join(", ")}})` : "CoercedSet()");
    }
  }
  if (!items.length) return undefined;
  return new PyObject("CoercedList", `[${items.join(", ")}]`, `image:${key}`);
}

/**
 * ImageMetaProps.from_dict: legacy names first, then current names (in
 * Nova's field order, so the first invalid one decides the error), then
 * trait:NAME=required.
 */
export interface ImagePropsOptions {
  /** img_hv_requested_version is parsed as PEP 440 versions (2025.1+). */
  pep440VersionPredicates?: boolean;
  /** Whose ImageMetaProps (fields, enums): Zed's by default. */
  release?: NovaRelease;
}

export function buildImageProps(properties: Record<string, unknown> = {}, options: ImagePropsOptions = {}): ImageProps {
  const props: ImageProps = new Map();
  if (properties === null || typeof properties !== "object" || Array.isArray(properties)) {
    // `key in 5` is a TypeError; a string or list has no .get()
    const type = properties === null ? "NoneType" : Array.isArray(properties) ? "list" : typeof properties;
    throw new NovaError(
      typeof properties === "string" || Array.isArray(properties) ? "AttributeError" : "TypeError",
      `image.properties: not a dict (${type})`,
    );
  }
  for (const [legacy, current] of Object.entries(LEGACY_IMAGE_PROPERTIES)) {
    if (Object.hasOwn(properties, legacy))
      props.set(current, coerce(current, properties[legacy], pyStrAt(properties, legacy), options));
  }
  const adapter = properties.vmware_adaptertype;
  if (adapter === "ide") props.set("hw_disk_bus", "ide");
  else if (adapter) {
    props.set("hw_disk_bus", "scsi");
    props.set("hw_scsi_model", coerce("hw_scsi_model", adapter, undefined, options));
  }
  for (const key of imageMetaTable(options.release).order) {
    if (key === "hw_numa_mem" || key === "hw_numa_cpus") {
      const v = numaList(properties, key);
      if (v !== undefined) props.set(key, v);
      continue;
    }
    if (key === "traits_required" || !Object.hasOwn(properties, key)) continue;
    props.set(key, coerce(key, properties[key], pyStrAt(properties, key), options));
  }
  const traits = Object.entries(properties)
    .filter(([k, v]) => k.startsWith("trait:") && String(v) === "required")
    .map(([k]) => k.slice(6));
  if (traits.length) props.set("traits_required", traits);
  return props;
}

/** ImageMetaProps.get(name): None when unset; AttributeError for non-fields. */
export function imagePropGet(props: ImageProps, name: string, release?: NovaRelease): PyValue | undefined {
  if (!Object.hasOwn(imageMetaTable(release).fields, name)) return undefined; // AttributeError: caller skips
  return props.get(name) ?? null;
}
