/**
 * A cloud's APIs -> the same Bundle scripts/collect-openstack.sh writes (one
 * entry per BUNDLE_FILES file, rows as the openstack client prints them), so
 * a sync goes through the bundle's converter and one path decides what a
 * cloud is. Only this folder knows the APIs' wire format.
 *
 * Reads: Nova (services, hypervisors, aggregates, flavors with extra specs,
 * server groups and servers of every project), Placement (providers with
 * their trees, inventories, usages, traits; the providers of each host
 * aggregate) and Glance (images with properties). Three requests per
 * provider: Placement has no bulk read of inventories, usages or traits. Microversions are negotiated, lists are paged, at most
 * `concurrency` requests run at once and each has a timeout.
 */
import { type Bundle, IMAGE_COLUMNS } from "@/lib/openstack/convert";
import { ApiError, type FetchLike, getJson, mapBounded } from "./http";
import { authenticate, type CloudSettings, endpointFor, type Session } from "./keystone";

/** The newest compute microversion whose answers this adapter knows (Nova 2024.1 serves 2.96; 2.93 is Zed's). */
export const COMPUTE_MAX = "2.93";
/** Placement 1.39 (Zed); 1.14 is the first with parent/root providers. */
export const PLACEMENT_MAX = "1.39";

export type CollectStep =
  | "authenticating"
  | "services"
  | "hypervisors"
  | "aggregates"
  | "flavors"
  | "server groups"
  | "servers"
  | "images"
  | "resource providers"
  | "provider details";

export interface CollectProgress {
  step: CollectStep;
  /** items read so far in this step, and how many there are when known */
  done: number;
  total?: number;
}

export interface CollectOptions {
  fetch: FetchLike;
  settings: CloudSettings;
  /** requests at once (default 8: a cloud's API workers serve others too) */
  concurrency?: number;
  /** per request, ms (default 60 s) */
  timeoutMs?: number;
  progress?: (p: CollectProgress) => void;
  /** items per page of a list (default 1000, Nova's osapi_max_limit) */
  pageSize?: number;
}

export interface Collected {
  bundle: Bundle;
  microversions: { compute: string; placement: string };
  endpoints: { compute: string; placement: string; image: string };
  /** GET requests sent (the token request aside) */
  requests: number;
  /** what the APIs cannot give, said once per sync */
  notes: string[];
}

type Row = Record<string, unknown>;

/** "2.93" -> [2, 93] comparable */
function ver(v: string): [number, number] {
  const m = /^v?(\d+)\.(\d+)$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}
export function compareVersions(a: string, b: string): number {
  const [x, y] = [ver(a), ver(b)];
  return x[0] - y[0] || x[1] - y[1];
}
function minVersion(a: string, b: string): string {
  return compareVersions(a, b) <= 0 ? a : b;
}

class Reader {
  requests = 0;
  constructor(
    private readonly fetchImpl: FetchLike,
    private readonly session: Session,
    private readonly timeoutMs: number,
  ) {}
  async get(url: string, what: string, headers: Record<string, string> = {}, accept?: number[]) {
    this.requests++;
    return getJson(this.fetchImpl, url, {
      headers: { "X-Auth-Token": this.session.token, ...headers },
      timeoutMs: this.timeoutMs,
      what,
      accept,
    });
  }
}

function listOf(body: unknown, key: string, url: string, what: string): Row[] {
  const v = body && typeof body === "object" ? (body as Row)[key] : undefined;
  if (!Array.isArray(v)) throw new ApiError("malformed", url, what, 200, `no "${key}" list in the answer`);
  return v as Row[];
}

function objectOf(body: unknown, key: string, url: string, what: string): Row {
  const v = body && typeof body === "object" ? (body as Row)[key] : undefined;
  if (!v || typeof v !== "object" || Array.isArray(v))
    throw new ApiError("malformed", url, what, 200, `no "${key}" object in the answer`);
  return v as Row;
}

/** The "next" link of a Nova list (…_links), or null. */
function nextLink(body: unknown, key: string): string | null {
  const links = body && typeof body === "object" ? (body as Row)[`${key}_links`] : undefined;
  if (!Array.isArray(links)) return null;
  const next = links.find((l) => (l as Row)?.rel === "next") as Row | undefined;
  return typeof next?.href === "string" ? next.href : null;
}

/** Follow a link the API gave on the endpoint we were given (the API may name its own host name). */
function onEndpoint(link: string, endpoint: string): string {
  const l = new URL(link, `${endpoint}/`);
  const e = new URL(endpoint);
  l.protocol = e.protocol;
  l.host = e.host;
  return l.toString();
}

async function novaPaged(
  r: Reader,
  PAGE: number,
  endpoint: string,
  path: string,
  key: string,
  what: string,
  headers: Record<string, string>,
  onPage: (n: number) => void,
): Promise<Row[]> {
  const out: Row[] = [];
  let url: string | null = `${endpoint}${path}${path.includes("?") ? "&" : "?"}limit=${PAGE}`;
  const seen = new Set<string>();
  while (url) {
    if (seen.has(url)) throw new ApiError("malformed", url, what, 200, "the next link repeats a page");
    seen.add(url);
    const { body } = await r.get(url, `${what} (after ${out.length} read)`, headers);
    const page = listOf(body, key, url, what);
    out.push(...page);
    onPage(out.length);
    const next = nextLink(body, key);
    url = next && page.length ? onEndpoint(next, endpoint) : null;
  }
  return out;
}

/** The compute microversion to speak: the connection's, else the newest both know. */
async function computeVersion(r: Reader, endpoint: string, wanted?: string): Promise<string> {
  const { body } = await r.get(`${endpoint}/`, "compute API version");
  const v = (body as { version?: { version?: string; min_version?: string } })?.version;
  const max = v?.version || "2.1";
  if (wanted && wanted !== "latest") {
    if (compareVersions(wanted, max) > 0)
      throw new Error(`compute_api_version ${wanted}: this cloud serves at most ${max}`);
    return wanted;
  }
  return minVersion(max, COMPUTE_MAX);
}

async function placementVersion(r: Reader, endpoint: string, wanted?: string): Promise<string> {
  const { body } = await r.get(`${endpoint}/`, "placement API version");
  const versions = (body as { versions?: { max_version?: string }[] })?.versions;
  const max = versions?.[0]?.max_version || "1.0";
  if (wanted && wanted !== "latest") {
    if (compareVersions(wanted, max) > 0)
      throw new Error(`placement_api_version ${wanted}: this cloud serves at most ${max}`);
    return wanted;
  }
  return minVersion(max, PLACEMENT_MAX);
}

/** Glance's v2 root from the catalog's image endpoint (with or without /v2). */
function imageRoot(endpoint: string): string {
  return /\/v2(\.\d+)?$/.test(endpoint) ? endpoint.replace(/\/v2(\.\d+)?$/, "/v2") : `${endpoint}/v2`;
}

/** Glance's image as `openstack image show -f json` prints it: the converter's attribute columns, the rest under properties. */
function imageRow(im: Row): Row {
  const row: Row = {};
  const properties: Row = {};
  for (const [k, v] of Object.entries(im)) {
    if (IMAGE_COLUMNS.has(k) && k !== "properties") row[k] = v;
    else properties[k] = v;
  }
  row.properties = properties;
  return row;
}

/** A flavor as `openstack flavor list --long -f json` prints it (no description: the list has none). */
function flavorRow(f: Row, specs: Row): Row {
  return {
    ID: f.id,
    Name: f.name,
    RAM: f.ram,
    Disk: f.disk,
    Ephemeral: f["OS-FLV-EXT-DATA:ephemeral"] ?? 0,
    VCPUs: f.vcpus,
    "Is Public": f["os-flavor-access:is_public"] ?? true,
    Swap: f.swap,
    "RXTX Factor": f.rxtx_factor,
    Properties: specs,
  };
}

/** A server as `openstack server list --all-projects --long -f json` prints the columns the converter reads. */
function serverRow(s: Row, flavorNames: Map<string, string>): Row {
  const flavor = (s.flavor ?? {}) as Row;
  const image = s.image && typeof s.image === "object" ? (s.image as Row) : {};
  return {
    ID: s.id,
    Name: s.name,
    Status: s.status,
    "Image ID": typeof image.id === "string" ? image.id : "N/A (booted from volume)",
    // 2.47+ embeds the flavor (original_name); before, the client looks the id up
    "Flavor Name":
      typeof flavor.original_name === "string" ? flavor.original_name : (flavorNames.get(String(flavor.id)) ?? ""),
    "Availability Zone": s["OS-EXT-AZ:availability_zone"],
    Host: s["OS-EXT-SRV-ATTR:host"] ?? null,
  };
}

export async function collectBundle(opts: CollectOptions): Promise<Collected> {
  const s = opts.settings;
  const timeoutMs = opts.timeoutMs ?? 60_000;
  const limit = Math.max(1, opts.concurrency ?? 8);
  const progress = opts.progress ?? (() => {});
  const PAGE = opts.pageSize ?? 1000;

  progress({ step: "authenticating", done: 0 });
  const session = await authenticate(opts.fetch, s, timeoutMs);
  const r = new Reader(opts.fetch, session, timeoutMs);
  const compute = endpointFor(session, "compute", s);
  const placement = endpointFor(session, "placement", s);
  const image = imageRoot(endpointFor(session, "image", s));

  const [cv, pv] = await Promise.all([
    computeVersion(r, compute, s.compute_api_version),
    placementVersion(r, placement, s.placement_api_version),
  ]);
  const nova = { "OpenStack-API-Version": `compute ${cv}`, "X-OpenStack-Nova-API-Version": cv };
  const plc = { "OpenStack-API-Version": `placement ${pv}` };
  const at = (v: string) => compareVersions(cv, v) >= 0;

  progress({ step: "services", done: 0 });
  const svcUrl = `${compute}/os-services?binary=nova-compute`;
  const services = listOf((await r.get(svcUrl, "compute services", nova)).body, "services", svcUrl, "compute services");
  progress({ step: "services", done: services.length, total: services.length });

  // hypervisors are paged from 2.33; the detail list is what `hypervisor show` prints for each
  const hypervisors = at("2.33")
    ? await novaPaged(r, PAGE, compute, "/os-hypervisors/detail", "hypervisors", "hypervisors", nova, (n) =>
        progress({ step: "hypervisors", done: n }),
      )
    : listOf(
        (await r.get(`${compute}/os-hypervisors/detail`, "hypervisors", nova)).body,
        "hypervisors",
        `${compute}/os-hypervisors/detail`,
        "hypervisors",
      );
  progress({ step: "hypervisors", done: hypervisors.length, total: hypervisors.length });

  const aggUrl = `${compute}/os-aggregates`;
  const aggregates = listOf((await r.get(aggUrl, "aggregates", nova)).body, "aggregates", aggUrl, "aggregates");
  progress({ step: "aggregates", done: aggregates.length, total: aggregates.length });

  const flavors = await novaPaged(r, PAGE, compute, "/flavors/detail?is_public=None", "flavors", "flavors", nova, (n) =>
    progress({ step: "flavors", done: n }),
  );
  // extra specs are in the list from 2.61; before, one request per flavor
  const specs = await mapBounded(flavors, limit, async (f) => {
    if (at("2.61") && f.extra_specs && typeof f.extra_specs === "object") return f.extra_specs as Row;
    const url = `${compute}/flavors/${encodeURIComponent(String(f.id))}/os-extra_specs`;
    return objectOf(
      (await r.get(url, `extra specs of flavor ${f.name}`, nova)).body,
      "extra_specs",
      url,
      "extra specs",
    );
  });
  const flavorRows = flavors.map((f, i) => flavorRow(f, specs[i]));
  progress({ step: "flavors", done: flavors.length, total: flavors.length });

  const groups: Row[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const url = `${compute}/os-server-groups?all_projects=True&limit=${PAGE}&offset=${offset}`;
    const page = listOf(
      (await r.get(url, `server groups (after ${groups.length} read)`, nova)).body,
      "server_groups",
      url,
      "server groups",
    );
    groups.push(...page);
    progress({ step: "server groups", done: groups.length });
    if (page.length < PAGE) break;
  }

  const servers = await novaPaged(
    r,
    PAGE,
    compute,
    "/servers/detail?all_tenants=True",
    "servers",
    "servers",
    nova,
    (n) => progress({ step: "servers", done: n }),
  );
  const flavorNames = new Map(flavors.map((f) => [String(f.id), String(f.name)]));
  const serverRows = servers.map((sv) => serverRow(sv, flavorNames));

  const images: Row[] = [];
  let imageUrl: string | null = `${image}/images?limit=${PAGE}`;
  const seenImages = new Set<string>();
  while (imageUrl) {
    if (seenImages.has(imageUrl))
      throw new ApiError("malformed", imageUrl, "images", 200, "the next link repeats a page");
    seenImages.add(imageUrl);
    const { body } = await r.get(imageUrl, `images (after ${images.length} read)`);
    const page = listOf(body, "images", imageUrl, "images");
    images.push(...page);
    progress({ step: "images", done: images.length });
    const next = (body as Row).next;
    imageUrl = typeof next === "string" && page.length ? onEndpoint(next, image.replace(/\/v2$/, "")) : null;
  }

  const rpUrl = `${placement}/resource_providers`;
  const providers = listOf(
    (await r.get(rpUrl, "resource providers", plc)).body,
    "resource_providers",
    rpUrl,
    "resource providers",
  );
  progress({ step: "resource providers", done: providers.length, total: providers.length });

  const inventory: Record<string, Row[]> = {};
  const usage: Record<string, Row[]> = {};
  const trait: Record<string, Row[]> = {};
  const aggregate: Record<string, Row[]> = {};
  let detailed = 0;
  await mapBounded(providers, limit, async (p) => {
    const uuid = String(p.uuid);
    const base = `${placement}/resource_providers/${encodeURIComponent(uuid)}`;
    const name = `provider ${p.name ?? uuid}`;
    const [inv, use, tr] = await Promise.all([
      r.get(`${base}/inventories`, `inventories of ${name}`, plc),
      r.get(`${base}/usages`, `usages of ${name}`, plc),
      r.get(`${base}/traits`, `traits of ${name}`, plc),
    ]);
    const invs = objectOf(inv.body, "inventories", `${base}/inventories`, `inventories of ${name}`);
    inventory[uuid] = Object.entries(invs).map(([rc, rec]) => ({ resource_class: rc, ...(rec as Row) }));
    const uses = objectOf(use.body, "usages", `${base}/usages`, `usages of ${name}`);
    usage[uuid] = Object.entries(uses).map(([rc, n]) => ({ resource_class: rc, usage: n }));
    trait[uuid] = listOf(tr.body, "traits", `${base}/traits`, `traits of ${name}`).map((t) => ({ name: t }));
    aggregate[uuid] = [];
    detailed++;
    if (detailed % 50 === 0 || detailed === providers.length)
      progress({ step: "provider details", done: detailed, total: providers.length });
  });

  // Placement's aggregates of Nova's host aggregates: one query per aggregate (member_of, 1.3+) rather than one
  // per provider; the converter takes aggregates from Nova's own list, these only mirror them
  if (compareVersions(pv, "1.3") >= 0) {
    const members = await mapBounded(
      aggregates.filter((a) => typeof a.uuid === "string"),
      limit,
      async (a) => {
        const url = `${placement}/resource_providers?member_of=${encodeURIComponent(String(a.uuid))}`;
        const what = `providers of aggregate ${a.name}`;
        return {
          uuid: String(a.uuid),
          rps: listOf((await r.get(url, what, plc)).body, "resource_providers", url, what),
        };
      },
    );
    for (const { uuid, rps } of members) for (const rp of rps) aggregate[String(rp.uuid)]?.push({ uuid });
  }

  const bundle: Bundle = {
    json: {
      "compute-service-list.json": services,
      "hypervisor-show.json": hypervisors,
      "aggregate-show.json": aggregates,
      "flavor-list.json": flavorRows,
      "image-show.json": images.map(imageRow),
      "server-group-show.json": groups,
      "server-list.json": serverRows,
      "resource-provider-list.json": providers,
      "resource-provider-inventory.json": inventory,
      "resource-provider-usage.json": usage,
      "resource-provider-trait.json": trait,
      "resource-provider-aggregate.json": aggregate,
    },
  };
  return {
    bundle,
    microversions: { compute: cv, placement: pv },
    endpoints: { compute, placement, image },
    requests: r.requests,
    notes: [
      "nova.conf is in no API: the scheduler profiles stay as they were imported",
      "compute_nodes (CPU info, NUMA topology, PCI device pools, metrics, stats) are in no API: a bundle with compute-nodes.json carries them",
    ],
  };
}
