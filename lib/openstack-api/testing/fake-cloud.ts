/**
 * A local stand-in for a cloud's APIs (Keystone, Nova, Placement, Glance on
 * one port) that answers in the real cloud's shapes
 * (../fixtures/real-cloud-zed.json, recorded from ../shared/real-cloud) at
 * any scale, records every request it gets, and fails on purpose where a
 * test asks it to. Used by the adapter's tests and by bench/sync.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import recorded from "../fixtures/real-cloud-zed.json";
import type { CloudSettings } from "../keystone";

export interface FakeCloudSpec {
  hosts: number;
  /** servers per host (default 2) */
  serversPerHost?: number;
  flavors?: number;
  images?: number;
  aggregates?: number;
  serverGroups?: number;
  /** a nested CUSTOM_MAGIC child under every tenth host (default true) */
  nested?: boolean;
}

/** What to do to requests whose path matches (after `after` matching requests have been answered). */
export interface Fault {
  path: RegExp;
  method?: string;
  kind: "status" | "malformed" | "hang" | "reset";
  status?: number;
  after?: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
}

export interface FakeCloud {
  url: string;
  settings: CloudSettings;
  requests: RecordedRequest[];
  faults: Fault[];
  close: () => Promise<void>;
}

export const FAKE_PASSWORD = "s3cret-Fake-Pa55";
const TOKEN = "gAAAAA-fake-token";

function uuid(kind: number, i: number): string {
  const hex = i.toString(16).padStart(12, "0");
  return `${kind.toString(16).padStart(8, "0")}-0000-4000-8000-${hex}`;
}

type Row = Record<string, unknown>;

/** The cloud's data, made once per server. */
function build(spec: FakeCloudSpec) {
  const perHost = spec.serversPerHost ?? 2;
  const nFlavors = spec.flavors ?? 8;
  const hosts = Array.from({ length: spec.hosts }, (_, i) => ({
    name: `cmp-${String(i + 1).padStart(5, "0")}`,
    uuid: uuid(1, i),
    serviceId: uuid(2, i),
    big: i % 3 === 0,
    child: spec.nested !== false && i % 10 === 9 ? uuid(3, i) : null,
  }));
  const flavors = Array.from({ length: nFlavors }, (_, i) => ({
    id: String(i + 1),
    name: `m1.f${i + 1}`,
    vcpus: 1 + (i % 4),
    ram: 1024 * (1 + (i % 4)),
    disk: 10 * (1 + (i % 3)),
    "OS-FLV-EXT-DATA:ephemeral": 0,
    swap: 0,
    rxtx_factor: 1.0,
    "os-flavor-access:is_public": true,
    "OS-FLV-DISABLED:disabled": false,
    description: null,
    links: [],
    extra_specs: i % 2 ? { "hw:cpu_policy": "shared", "aggregate_instance_extra_specs:ssd": "true" } : {},
  }));
  const images = Array.from({ length: spec.images ?? 3 }, (_, i) => ({
    ...(recorded.image as Row),
    id: uuid(4, i),
    name: `image-${i}`,
    hw_architecture: "x86_64",
    self: `/v2/images/${uuid(4, i)}`,
  }));
  const servers: Row[] = [];
  hosts.forEach((h, hi) => {
    for (let k = 0; k < perHost; k++) {
      const f = flavors[(hi + k) % flavors.length];
      const n = servers.length;
      servers.push({
        id: uuid(5, n),
        name: `vm-${n}`,
        status: "ACTIVE",
        tenant_id: "9e8d023cb0904a6c9ea8682ed08f6342",
        user_id: "25f6f2e55727452187b440a8051fe6b2",
        image: images.length ? { id: images[n % images.length].id, links: [] } : "",
        flavor: {
          vcpus: f.vcpus,
          ram: f.ram,
          disk: f.disk,
          ephemeral: 0,
          swap: 0,
          original_name: f.name,
          extra_specs: f.extra_specs,
        },
        "OS-EXT-SRV-ATTR:host": h.name,
        "OS-EXT-SRV-ATTR:hypervisor_hostname": h.name,
        "OS-EXT-AZ:availability_zone": "nova",
        "OS-EXT-STS:vm_state": "active",
        addresses: {},
        metadata: {},
        created: "2026-11-28T10:00:00Z",
      });
    }
  });
  const usage = (hi: number) => {
    const mine = servers.slice(hi * perHost, (hi + 1) * perHost);
    const f = (s: Row) => s.flavor as Row;
    return {
      VCPU: mine.reduce((a, s) => a + Number(f(s).vcpus), 0),
      MEMORY_MB: mine.reduce((a, s) => a + Number(f(s).ram), 0),
      DISK_GB: mine.reduce((a, s) => a + Number(f(s).disk), 0),
    };
  };
  const aggregates = Array.from({ length: spec.aggregates ?? 2 }, (_, a) => ({
    id: a + 1,
    uuid: uuid(6, a),
    name: `agg-${a}`,
    availability_zone: a === 0 ? "az-ssd" : null,
    hosts: hosts.filter((_, i) => i % (a + 2) === 0).map((h) => h.name),
    metadata: a === 0 ? { availability_zone: "az-ssd", ssd: "true" } : { pinned: "true" },
    created_at: "2026-11-28T10:00:00.000000",
    updated_at: null,
    deleted_at: null,
    deleted: false,
  }));
  const groups = Array.from({ length: spec.serverGroups ?? 1 }, (_, g) => ({
    id: uuid(7, g),
    name: `group-${g}`,
    policy: "anti-affinity",
    rules: {},
    members: servers.slice(g * 3, g * 3 + 3).map((s) => s.id),
    project_id: "9e8d023cb0904a6c9ea8682ed08f6342",
    user_id: "25f6f2e55727452187b440a8051fe6b2",
  }));
  return { hosts, flavors, images, servers, usage, aggregates, groups };
}

function page<T extends Row>(list: T[], q: URLSearchParams, key: string, base: string): Row {
  const limit = Math.min(Number(q.get("limit") ?? 1000), 1000);
  const marker = q.get("marker");
  const start = marker ? list.findIndex((x) => String(x.id) === marker) + 1 : 0;
  const items = list.slice(start, start + limit);
  const out: Row = { [key]: items };
  if (start + limit < list.length && items.length) {
    const next = new URLSearchParams(q);
    next.set("marker", String(items[items.length - 1].id));
    out[`${key}_links`] = [{ rel: "next", href: `${base}?${next}` }];
  }
  return out;
}

export async function startFakeCloud(spec: FakeCloudSpec, faults: Fault[] = []): Promise<FakeCloud> {
  const data = build(spec);
  const hostIndex = new Map(data.hosts.map((h, i) => [h.uuid, i]));
  const childOf = new Map(data.hosts.filter((h) => h.child).map((h) => [h.child as string, h]));
  const requests: RecordedRequest[] = [];
  const counts = new Map<Fault, number>();
  const sockets = new Set<import("node:net").Socket>();
  let origin = "";

  const answer = (req: http.IncomingMessage, body: string): { status: number; json?: unknown; headers?: Row } => {
    const u = new URL(req.url ?? "/", origin);
    const p = u.pathname;
    const q = u.searchParams;
    if (req.method === "POST" && p === "/identity/v3/auth/tokens") {
      let auth: Row;
      try {
        auth = JSON.parse(body).auth;
      } catch {
        return { status: 400, json: { error: { message: "bad body" } } };
      }
      const pw = ((auth?.identity as Row)?.password as Row)?.user as Row | undefined;
      const ac = (auth?.identity as Row)?.application_credential as Row | undefined;
      if (pw?.password !== FAKE_PASSWORD && ac?.secret !== FAKE_PASSWORD)
        return {
          status: 401,
          json: {
            error: { code: 401, message: "The request you have made requires authentication.", title: "Unauthorized" },
          },
        };
      const ep = (path: string) =>
        ["public", "internal", "admin"].map((i) => ({
          interface: i,
          region_id: "RegionOne",
          region: "RegionOne",
          url: `${origin}${path}`,
        }));
      return {
        status: 201,
        headers: { "X-Subject-Token": TOKEN },
        json: {
          token: {
            methods: ["password"],
            expires_at: "2099-01-01T00:00:00.000000Z",
            roles: recorded.tokenRoles,
            catalog: [
              { type: "identity", name: "keystone", endpoints: ep("/identity/v3/") },
              { type: "compute", name: "nova", endpoints: ep("/compute/v2.1") },
              { type: "placement", name: "placement", endpoints: ep("/placement") },
              { type: "image", name: "glance", endpoints: ep("/image") },
            ],
          },
        },
      };
    }
    if (req.method !== "GET") return { status: 405, json: { error: { message: "read-only fake" } } };
    if (req.headers["x-auth-token"] !== TOKEN) return { status: 401, json: { error: { message: "no token" } } };
    if (p === "/compute/v2.1/") return { status: 200, json: recorded.computeVersion };
    if (p === "/placement/") return { status: 200, json: recorded.placementVersions };
    if (p === "/compute/v2.1/os-services")
      return {
        status: 200,
        json: {
          services: data.hosts.map((h) => ({ ...recorded.service, id: h.serviceId, host: h.name })),
        },
      };
    if (p === "/compute/v2.1/os-hypervisors/detail")
      return {
        status: 200,
        json: page(
          data.hosts.map((h) => ({
            ...recorded.hypervisor,
            id: h.uuid,
            hypervisor_hostname: h.name,
            service: { ...recorded.hypervisor.service, id: h.serviceId, host: h.name },
          })),
          q,
          "hypervisors",
          `${origin}/compute/v2.1/os-hypervisors/detail`,
        ),
      };
    if (p === "/compute/v2.1/os-aggregates") return { status: 200, json: { aggregates: data.aggregates } };
    if (p === "/compute/v2.1/flavors/detail")
      return { status: 200, json: page(data.flavors, q, "flavors", `${origin}/compute/v2.1/flavors/detail`) };
    if (p === "/compute/v2.1/os-server-groups") {
      const off = Number(q.get("offset") ?? 0);
      const lim = Number(q.get("limit") ?? 1000);
      return { status: 200, json: { server_groups: data.groups.slice(off, off + lim) } };
    }
    if (p === "/compute/v2.1/servers/detail")
      return { status: 200, json: page(data.servers, q, "servers", `${origin}/compute/v2.1/servers/detail`) };
    if (p === "/image/v2/images") {
      const limit = Number(q.get("limit") ?? 25);
      const marker = q.get("marker");
      const start = marker ? data.images.findIndex((i) => i.id === marker) + 1 : 0;
      const items = data.images.slice(start, start + limit);
      const out: Row = { images: items, first: "/v2/images", schema: "/v2/schemas/images" };
      if (start + limit < data.images.length)
        out.next = `/v2/images?limit=${limit}&marker=${items[items.length - 1].id}`;
      return { status: 200, json: out };
    }
    if (p === "/placement/resource_providers") {
      const list: Row[] = [];
      const member = q.get("member_of");
      const agg = member ? data.aggregates.find((a) => a.uuid === member) : null;
      for (const h of data.hosts) {
        if (member && !agg?.hosts.includes(h.name)) continue;
        list.push({ ...recorded.provider, uuid: h.uuid, name: h.name, root_provider_uuid: h.uuid, links: [] });
        if (h.child && !member)
          list.push({
            ...recorded.childProvider,
            uuid: h.child,
            name: `${h.name}-child`,
            parent_provider_uuid: h.uuid,
            root_provider_uuid: h.uuid,
            links: [],
          });
      }
      return { status: 200, json: { resource_providers: list } };
    }
    const rp = /^\/placement\/resource_providers\/([0-9a-f-]+)\/(inventories|usages|traits|aggregates)$/.exec(p);
    if (rp) {
      const [, id, what] = rp;
      const hi = hostIndex.get(id);
      const parent = childOf.get(id);
      if (hi === undefined && !parent)
        return { status: 404, json: { errors: [{ status: 404, detail: "No resource provider" }] } };
      if (parent) {
        if (what === "inventories") return { status: 200, json: recorded.childInventories };
        if (what === "usages") return { status: 200, json: recorded.childUsages };
        if (what === "traits") return { status: 200, json: { traits: [], resource_provider_generation: 1 } };
        return { status: 200, json: { aggregates: [], resource_provider_generation: 1 } };
      }
      const i = hi as number;
      if (what === "inventories") {
        const inv = structuredClone(recorded.inventories) as { inventories: Record<string, Row> };
        if (data.hosts[i].big) {
          inv.inventories.VCPU.total = 64;
          inv.inventories.VCPU.max_unit = 64;
        }
        return { status: 200, json: inv };
      }
      if (what === "usages") return { status: 200, json: { resource_provider_generation: 3, usages: data.usage(i) } };
      if (what === "traits") return { status: 200, json: recorded.traits };
      return {
        status: 200,
        json: {
          aggregates: data.aggregates.filter((a) => a.hosts.includes(data.hosts[i].name)).map((a) => a.uuid),
          resource_provider_generation: 3,
        },
      };
    }
    return { status: 404, json: { itemNotFound: { code: 404, message: `no route ${p}` } } };
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      requests.push({ method: req.method ?? "?", path, headers: req.headers });
      for (const f of faults) {
        if (!f.path.test(path) || (f.method && f.method !== req.method)) continue;
        const n = counts.get(f) ?? 0;
        counts.set(f, n + 1);
        if (n < (f.after ?? 0)) continue;
        if (f.kind === "hang") return; // never answers: the client's timeout must fire
        if (f.kind === "reset") {
          req.socket.destroy();
          return;
        }
        if (f.kind === "malformed") {
          res.writeHead(200, { "Content-Type": "application/json" });
          res.end('{"hypervisors": [{"id": "x", ');
          return;
        }
        res.writeHead(f.status ?? 500, { "Content-Type": "application/json" });
        res.end(
          JSON.stringify({ error: { code: f.status ?? 500, message: `failing on purpose (${f.status ?? 500})` } }),
        );
        return;
      }
      const a = answer(req, Buffer.concat(chunks).toString("utf8"));
      res.writeHead(a.status, { "Content-Type": "application/json", ...(a.headers as Record<string, string>) });
      res.end(a.json === undefined ? "" : JSON.stringify(a.json));
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    faults,
    settings: {
      auth_url: `${origin}/identity/v3`,
      username: "admin",
      password: FAKE_PASSWORD,
      user_domain_name: "Default",
      project_name: "admin",
      project_domain_name: "Default",
      region_name: "RegionOne",
      interface: "public",
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}
