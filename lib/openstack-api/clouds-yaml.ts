/**
 * clouds.yaml as the openstack client reads it: the first of
 * OS_CLIENT_CONFIG_FILE, ./clouds.yaml, ~/.config/openstack/clouds.yaml,
 * /etc/openstack/clouds.yaml; secure.yaml beside it merged over it; or the
 * OS_* variables of an openrc. The YAML read here is the part clouds.yaml
 * files use: nested mappings, plain and quoted scalars, lists, comments.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { CloudSettings } from "./keystone";

export class CloudsYamlError extends Error {}

/** Environment variables (process.env, or a test's own). */
export type Env = Record<string, string | undefined>;

type Yaml = string | number | boolean | null | Yaml[] | { [k: string]: Yaml };

function scalar(raw: string, line: number): Yaml {
  const t = raw.trim();
  if (t.startsWith("'")) {
    if (!t.endsWith("'") || t.length < 2) throw new CloudsYamlError(`line ${line}: unterminated '...' string`);
    return t.slice(1, -1).replace(/''/g, "'");
  }
  if (t.startsWith('"')) {
    if (!t.endsWith('"') || t.length < 2) throw new CloudsYamlError(`line ${line}: unterminated "..." string`);
    try {
      return JSON.parse(t);
    } catch {
      throw new CloudsYamlError(`line ${line}: bad "..." string`);
    }
  }
  if (t === "" || t === "~" || t === "null") return null;
  if (/^(true|yes|on)$/i.test(t)) return true;
  if (/^(false|no|off)$/i.test(t)) return false;
  // versions ("2.92") stay text: an openstack option is read as a string anyway
  if (/^-?\d+$/.test(t)) return Number(t);
  return t;
}

/** A trailing " # comment" outside quotes goes. */
function stripComment(s: string): string {
  let q: string | null = null;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (q) {
      if (c === q) q = null;
    } else if (c === "'" || c === '"') q = c;
    else if (c === "#" && (i === 0 || /\s/.test(s[i - 1]))) return s.slice(0, i);
  }
  return s;
}

export function parseYaml(text: string): Yaml {
  if (text.length > 1024 * 1024) throw new CloudsYamlError("the file is larger than 1 MB");
  const lines = text
    .split(/\r?\n/)
    .map((raw, i) => ({ n: i + 1, text: stripComment(raw).replace(/\s+$/, "") }))
    .filter((l) => l.text.trim() !== "" && l.text.trim() !== "---");
  for (const l of lines)
    if (/^\s*\t/.test(l.text)) throw new CloudsYamlError(`line ${l.n}: tabs are not allowed for indentation`);
  let i = 0;
  const indentOf = (s: string) => s.length - s.trimStart().length;

  function block(indent: number): Yaml {
    if (i >= lines.length) return null;
    const first = lines[i].text.trimStart();
    return first.startsWith("- ") || first === "-" ? list(indent) : map(indent);
  }
  function map(indent: number): Yaml {
    const out: Record<string, Yaml> = {};
    while (i < lines.length) {
      const l = lines[i];
      const ind = indentOf(l.text);
      if (ind < indent) break;
      if (ind > indent) throw new CloudsYamlError(`line ${l.n}: unexpected indentation`);
      const m = /^("[^"]*"|'[^']*'|[^:]+?):(?:\s+(.*))?$/.exec(l.text.trim());
      if (!m) throw new CloudsYamlError(`line ${l.n}: expected "key: value"`);
      const key = String(scalar(m[1], l.n));
      if (key === "__proto__" || key === "constructor" || key === "prototype")
        throw new CloudsYamlError(`line ${l.n}: key "${key}" is not allowed`);
      i++;
      if (m[2] !== undefined && m[2].trim() !== "") {
        const v = m[2].trim();
        if (v === "|" || v === ">" || v.startsWith("&") || v.startsWith("*") || v.startsWith("!"))
          throw new CloudsYamlError(`line ${l.n}: ${v[0]} is a YAML feature clouds.yaml does not need (not read)`);
        if (v.startsWith("{") || v.startsWith("[")) out[key] = flow(v, l.n);
        else out[key] = scalar(v, l.n);
      } else if (i < lines.length && indentOf(lines[i].text) > indent) out[key] = block(indentOf(lines[i].text));
      else if (i < lines.length && indentOf(lines[i].text) === indent && lines[i].text.trimStart().startsWith("-"))
        out[key] = list(indent);
      else out[key] = null;
    }
    return out;
  }
  function list(indent: number): Yaml {
    const out: Yaml[] = [];
    while (i < lines.length) {
      const l = lines[i];
      const ind = indentOf(l.text);
      const t = l.text.trimStart();
      if (ind < indent || !(t.startsWith("- ") || t === "-")) break;
      const rest = t.slice(1).trimStart();
      if (rest === "") {
        i++;
        out.push(i < lines.length && indentOf(lines[i].text) > indent ? block(indentOf(lines[i].text)) : null);
      } else if (/^[^'"{[][^:]*:(\s|$)/.test(rest)) {
        // "- key: value" starts a mapping whose keys sit where "key" does
        lines[i] = { n: l.n, text: `${" ".repeat(ind + t.length - rest.length)}${rest}` };
        out.push(map(ind + t.length - rest.length));
      } else {
        i++;
        out.push(rest.startsWith("{") || rest.startsWith("[") ? flow(rest, l.n) : scalar(rest, l.n));
      }
    }
    return out;
  }
  function flow(v: string, n: number): Yaml {
    try {
      return JSON.parse(v);
    } catch {
      const inner = v.slice(1, -1).trim();
      if (v.startsWith("[") && v.endsWith("]")) return inner ? inner.split(",").map((x) => scalar(x, n)) : [];
      throw new CloudsYamlError(`line ${n}: inline {...} is read only as JSON`);
    }
  }
  return block(0);
}

/** Where the openstack client looks, in its order. */
export function cloudsYamlCandidates(env: Env = process.env, cwd = process.cwd()): string[] {
  const home = env.HOME || os.homedir();
  const xdg = env.XDG_CONFIG_HOME || path.join(home, ".config");
  return [
    ...(env.OS_CLIENT_CONFIG_FILE ? [env.OS_CLIENT_CONFIG_FILE] : []),
    path.join(cwd, "clouds.yaml"),
    path.join(xdg, "openstack", "clouds.yaml"),
    "/etc/openstack/clouds.yaml",
  ];
}

function isObj(v: unknown): v is Record<string, Yaml> {
  return !!v && typeof v === "object" && !Array.isArray(v);
}

function merge(a: Record<string, Yaml>, b: Record<string, Yaml>): Record<string, Yaml> {
  const out = { ...a };
  for (const [k, v] of Object.entries(b))
    out[k] = isObj(v) && isObj(out[k]) ? merge(out[k] as Record<string, Yaml>, v) : v;
  return out;
}

const AUTH_KEYS = [
  "auth_url",
  "username",
  "user_id",
  "password",
  "user_domain_name",
  "user_domain_id",
  "project_name",
  "project_id",
  "project_domain_name",
  "project_domain_id",
  "domain_name",
  "domain_id",
  "application_credential_id",
  "application_credential_name",
  "application_credential_secret",
] as const;

/** One cloud entry (the mapping under clouds.NAME) -> settings; `dir` resolves a relative cacert. */
export function settingsFromEntry(entry: unknown, where: string): CloudSettings {
  if (!isObj(entry)) throw new CloudsYamlError(`${where}: must be a mapping`);
  const auth = isObj(entry.auth) ? entry.auth : {};
  const s: Record<string, unknown> = {};
  for (const k of AUTH_KEYS) {
    // project_name is also spelled tenant_name by old files
    const v = auth[k] ?? (k === "project_name" ? auth.tenant_name : k === "project_id" ? auth.tenant_id : undefined);
    if (v !== undefined && v !== null) s[k] = String(v);
  }
  const str = (v: Yaml | undefined) => (v === undefined || v === null ? undefined : String(v));
  const region = Array.isArray(entry.regions) ? entry.regions[0] : entry.region_name;
  s.region_name = str(isObj(region) ? region.name : region);
  s.auth_type = str(entry.auth_type);
  s.interface = str(entry.interface ?? entry.endpoint_type);
  s.cacert = str(entry.cacert);
  if (entry.verify === false) s.verify = false;
  s.compute_api_version = str(entry.compute_api_version);
  s.placement_api_version = str(entry.placement_api_version);
  for (const k of Object.keys(s)) if (s[k] === undefined) delete s[k];
  if (!s.auth_url) throw new CloudsYamlError(`${where}.auth.auth_url: is required`);
  if (entry.identity_api_version !== undefined && String(entry.identity_api_version) !== "3")
    throw new CloudsYamlError(`${where}.identity_api_version: must be 3 (Keystone v3)`);
  return s as unknown as CloudSettings;
}

/** The names of the clouds in a clouds.yaml text. */
export function cloudNames(text: string): string[] {
  const doc = parseYaml(text);
  return isObj(doc) && isObj(doc.clouds) ? Object.keys(doc.clouds) : [];
}

/**
 * A cloud from clouds.yaml text (a whole file, or just one entry as pasted on
 * the page: `auth: ...` at the top). `secure` is secure.yaml's text.
 */
export function settingsFromCloudsYaml(text: string, name?: string, secure?: string): CloudSettings {
  let doc = parseYaml(text);
  if (secure) {
    const sec = parseYaml(secure);
    if (isObj(doc) && isObj(sec)) doc = merge(doc, sec);
  }
  if (!isObj(doc)) throw new CloudsYamlError("clouds.yaml: must be a mapping");
  if (!isObj(doc.clouds)) {
    // a single entry pasted: "auth:" at the top, or "NAME:\n  auth:"
    if (isObj(doc.auth)) return settingsFromEntry(doc, "the entry");
    const keys = Object.keys(doc);
    if (keys.length === 1 && isObj(doc[keys[0]]) && isObj((doc[keys[0]] as Record<string, Yaml>).auth))
      return settingsFromEntry(doc[keys[0]], keys[0]);
    throw new CloudsYamlError('clouds.yaml: has no "clouds:" mapping and no "auth:" entry');
  }
  const names = Object.keys(doc.clouds);
  const pick = name ?? (names.length === 1 ? names[0] : undefined);
  if (!pick) throw new CloudsYamlError(`clouds.yaml: name the cloud (it has ${names.join(", ") || "none"})`);
  if (!(pick in doc.clouds))
    throw new CloudsYamlError(`clouds.yaml: has no cloud "${pick}" (it has ${names.join(", ") || "none"})`);
  return settingsFromEntry(doc.clouds[pick], `clouds.${pick}`);
}

/** The OS_* variables of an openrc, or null when OS_AUTH_URL is not set. */
export function settingsFromEnv(env: Env = process.env): CloudSettings | null {
  if (!env.OS_AUTH_URL) return null;
  const e = (k: string) => env[k]?.trim() || undefined;
  const s: Record<string, string | boolean | undefined> = {
    auth_url: e("OS_AUTH_URL"),
    auth_type: e("OS_AUTH_TYPE"),
    username: e("OS_USERNAME"),
    user_id: e("OS_USER_ID"),
    password: e("OS_PASSWORD"),
    user_domain_name: e("OS_USER_DOMAIN_NAME"),
    user_domain_id: e("OS_USER_DOMAIN_ID"),
    project_name: e("OS_PROJECT_NAME") ?? e("OS_TENANT_NAME"),
    project_id: e("OS_PROJECT_ID") ?? e("OS_TENANT_ID"),
    project_domain_name: e("OS_PROJECT_DOMAIN_NAME"),
    project_domain_id: e("OS_PROJECT_DOMAIN_ID"),
    domain_name: e("OS_DOMAIN_NAME"),
    application_credential_id: e("OS_APPLICATION_CREDENTIAL_ID"),
    application_credential_name: e("OS_APPLICATION_CREDENTIAL_NAME"),
    application_credential_secret: e("OS_APPLICATION_CREDENTIAL_SECRET"),
    region_name: e("OS_REGION_NAME"),
    interface: e("OS_INTERFACE") ?? e("OS_ENDPOINT_TYPE"),
    cacert: e("OS_CACERT"),
    compute_api_version: e("OS_COMPUTE_API_VERSION"),
    placement_api_version: e("OS_PLACEMENT_API_VERSION"),
  };
  if (env.OS_INSECURE && /^(1|true|yes)$/i.test(env.OS_INSECURE)) s.verify = false;
  for (const k of Object.keys(s)) if (s[k] === undefined) delete s[k];
  return s as unknown as CloudSettings;
}

/**
 * The cloud the openstack client would use: --os-cloud NAME (or OS_CLOUD)
 * from the first clouds.yaml found, else the OS_* variables.
 */
export function findCloud(
  name: string | undefined,
  env: Env = process.env,
  cwd = process.cwd(),
): { settings: CloudSettings; source: string } {
  const cloud = name ?? env.OS_CLOUD;
  if (cloud) {
    for (const file of cloudsYamlCandidates(env, cwd)) {
      if (!fs.existsSync(file)) continue;
      const text = fs.readFileSync(file, "utf8");
      const doc = parseYaml(text);
      if (!isObj(doc) || !isObj(doc.clouds) || !(cloud in doc.clouds)) continue;
      const securePath = path.join(path.dirname(file), "secure.yaml");
      const secure = fs.existsSync(securePath) ? fs.readFileSync(securePath, "utf8") : undefined;
      return { settings: settingsFromCloudsYaml(text, cloud, secure), source: `${file} (cloud ${cloud})` };
    }
    throw new CloudsYamlError(
      `no clouds.yaml names cloud "${cloud}" (looked in ${cloudsYamlCandidates(env, cwd).join(", ")})`,
    );
  }
  const fromEnv = settingsFromEnv(env);
  if (fromEnv) return { settings: fromEnv, source: "OS_* environment variables" };
  throw new CloudsYamlError("no cloud: give --os-cloud NAME, set OS_CLOUD, or load an openrc (OS_AUTH_URL, ...)");
}
