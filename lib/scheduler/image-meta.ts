/**
 * ImageMetaProps as Nova builds it from an image's properties: known fields
 * are typed and validated (an invalid value fails the whole request with
 * ValueError), legacy names are mapped, unknown properties are dropped.
 */
import { IMAGE_META_FIELDS, LEGACY_IMAGE_PROPERTIES } from './image-meta-fields';
import { canonicalizeArch, canonicalizeHvType, canonicalizeVmMode } from './nova-fields';
import { NovaError, PyValue, pyInt, pyStr } from './python';

export type ImageProps = Map<string, PyValue>;

const TRUE_STRINGS = new Set(['1', 't', 'true', 'on', 'y', 'yes']);

// distutils.version.StrictVersion
const STRICT_VERSION = /^(\d+)\.(\d+)(\.(\d+))?([ab](\d+))?$/;
export type StrictVersion = [number, number, number, string, number];

export function parseStrictVersion(s: string): StrictVersion {
  const m = STRICT_VERSION.exec(s);
  if (!m) throw new NovaError('ValueError', `invalid version number '${s}'`);
  return [Number(m[1]), Number(m[2]), m[4] ? Number(m[4]) : 0, m[5] ? m[5][0] : '~', m[6] ? Number(m[6]) : 0];
}

export function compareStrictVersion(a: StrictVersion, b: StrictVersion): number {
  for (let i = 0; i < 5; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

export type VersionPredicate = Array<[string, StrictVersion]>;

/** distutils.versionpredicate.VersionPredicate('image_prop (' + value + ')'). */
export function parseVersionPredicate(value: string): VersionPredicate {
  const inner = value.trim();
  return inner.split(',').map((part) => {
    const m = /^\s*(<=|>=|<|>|!=|==)\s*([^\s,]+)\s*$/.exec(part);
    if (!m) throw new NovaError('ValueError', `Version ${value} is not a valid predicate in field img_hv_requested_version`);
    try {
      return [m[1], parseStrictVersion(m[2])] as [string, StrictVersion];
    } catch {
      throw new NovaError('ValueError', `Version ${value} is not a valid predicate in field img_hv_requested_version`);
    }
  });
}

export function versionSatisfies(pred: VersionPredicate, version: StrictVersion): boolean {
  for (const [op, v] of pred) {
    const c = compareStrictVersion(version, v);
    const ok = op === '<' ? c < 0 : op === '<=' ? c <= 0 : op === '>' ? c > 0 : op === '>=' ? c >= 0 : op === '==' ? c === 0 : c !== 0;
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
  return parts.join('.');
}

function coerce(key: string, raw: unknown): PyValue {
  const field = IMAGE_META_FIELDS[key];
  const str = typeof raw === 'string' ? raw : pyStr(raw as PyValue);
  switch (field.kind) {
    case 'arch':
      return canonicalizeArch(str);
    case 'hv_type':
      return canonicalizeHvType(str);
    case 'vm_mode':
      return canonicalizeVmMode(str);
    case 'enum':
      if (!field.values!.includes(str)) throw new NovaError('ValueError', `Field value ${str} is invalid`);
      return str;
    case 'int':
      return typeof raw === 'number' ? Math.trunc(raw) : pyInt(str);
    case 'bool':
      return typeof raw === 'boolean' ? raw : TRUE_STRINGS.has(str.trim().toLowerCase());
    case 'string':
      if (key === 'img_hv_requested_version') parseVersionPredicate(str);
      return str;
    default:
      return raw as PyValue;
  }
}

/** ImageMetaProps.from_dict: legacy names first, then current names win. */
export function buildImageProps(properties: Record<string, unknown> = {}): ImageProps {
  const props: ImageProps = new Map();
  for (const [legacy, current] of Object.entries(LEGACY_IMAGE_PROPERTIES)) {
    if (legacy in properties) props.set(current, coerce(current, properties[legacy]));
  }
  const adapter = properties['vmware_adaptertype'];
  if (adapter === 'ide') props.set('hw_disk_bus', 'ide');
  else if (adapter) {
    props.set('hw_disk_bus', 'scsi');
    props.set('hw_scsi_model', coerce('hw_scsi_model', adapter));
  }
  for (const key of Object.keys(IMAGE_META_FIELDS)) {
    if (key === 'traits_required' || !(key in properties)) continue;
    props.set(key, coerce(key, properties[key]));
  }
  const traits = Object.entries(properties)
    .filter(([k, v]) => k.startsWith('trait:') && String(v) === 'required')
    .map(([k]) => k.slice(6));
  if (traits.length) props.set('traits_required', traits);
  return props;
}

/** ImageMetaProps.get(name): None when unset; AttributeError for non-fields. */
export function imagePropGet(props: ImageProps, name: string): PyValue | undefined {
  if (!(name in IMAGE_META_FIELDS)) return undefined; // AttributeError: caller skips
  return props.get(name) ?? null;
}
