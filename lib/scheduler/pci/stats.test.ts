import { describe, expect, it } from "vitest";
import type { PciRequest } from "./request";
import { PciDeviceStats, type PciPool } from "./stats";

const GPU = { vendor_id: "10de", product_id: "20b5" };

function pool(
  vendor: string,
  product: string,
  node: number | null,
  count: number,
  tags: Record<string, string>,
): PciPool {
  const props = new Map<string, string | number | null>([
    ["product_id", product],
    ["vendor_id", vendor],
    ["numa_node", node],
  ]);
  for (const [k, v] of Object.entries(tags)) props.set(k, v);
  return { props, count, numaNode: props.get("numa_node") ?? null };
}

const req = (count: number, numaPolicy: string | null = null): PciRequest => ({
  count,
  spec: [GPU],
  aliasName: "gpu",
  numaPolicy,
});

// What Nova's PciDeviceStats answers (support_requests, then apply_requests) for the same pools.
const CASES: Array<{
  name: string;
  pools: PciPool[];
  sockets: Array<number | null>;
  requests: PciRequest[];
  guestCells: number[] | null;
  ok: boolean;
  left: Array<[number | null, number]>;
}> = [
  {
    name: "pools with fewer tags are used first",
    pools: [
      pool("10de", "20b5", 0, 2, { dev_type: "type-PCI", physical_network: "p1" }),
      pool("10de", "20b5", 0, 2, { dev_type: "type-PCI" }),
    ],
    sockets: [0, 0],
    requests: [req(1)],
    guestCells: null,
    ok: true,
    left: [
      [0, 1],
      [0, 2],
    ],
  },
  {
    name: "required: devices on another NUMA node do not count",
    pools: [pool("10de", "20b5", 1, 4, { dev_type: "type-PCI" })],
    sockets: [0, 1],
    requests: [req(1, "required")],
    guestCells: [0],
    ok: false,
    left: [[1, 4]],
  },
  {
    name: "legacy: devices without NUMA affinity are fine",
    pools: [pool("10de", "20b5", null, 4, { dev_type: "type-PCI" })],
    sockets: [0, 1],
    requests: [req(1, "legacy")],
    guestCells: [0],
    ok: true,
    left: [[null, 3]],
  },
  {
    name: "legacy: devices on the other node are not",
    pools: [pool("10de", "20b5", 1, 4, { dev_type: "type-PCI" })],
    sockets: [0, 1],
    requests: [req(1, "legacy")],
    guestCells: [0],
    ok: false,
    left: [[1, 4]],
  },
  {
    name: "preferred: any node when the guest's has none",
    pools: [pool("10de", "20b5", 1, 4, { dev_type: "type-PCI" })],
    sockets: [0, 1],
    requests: [req(1, "preferred")],
    guestCells: [0],
    ok: true,
    left: [[1, 3]],
  },
  {
    name: "socket: a node on the guest cell's socket",
    pools: [pool("10de", "20b5", 1, 4, { dev_type: "type-PCI" })],
    sockets: [0, 0],
    requests: [req(1, "socket")],
    guestCells: [0],
    ok: true,
    left: [[1, 3]],
  },
  {
    name: "socket: unknown sockets never match",
    pools: [pool("10de", "20b5", 1, 4, { dev_type: "type-PCI" })],
    sockets: [0, null],
    requests: [req(1, "socket")],
    guestCells: [0],
    ok: false,
    left: [[1, 4]],
  },
  {
    name: "a PF is not given to a request that did not ask for one",
    pools: [pool("10de", "20b5", 0, 4, { dev_type: "type-PF", remote_managed: "false" })],
    sockets: [0],
    requests: [req(1)],
    guestCells: null,
    ok: false,
    left: [[0, 4]],
  },
  {
    name: "remote-managed devices are kept for remote-managed ports",
    pools: [pool("10de", "20b5", 0, 4, { dev_type: "type-VF", remote_managed: "true" })],
    sockets: [0],
    requests: [req(1)],
    guestCells: null,
    ok: false,
    left: [[0, 4]],
  },
  {
    name: "an emptied pool disappears",
    pools: [pool("10de", "20b5", 0, 2, { dev_type: "type-PCI" }), pool("10de", "20b5", 1, 1, { dev_type: "type-PCI" })],
    sockets: [0, 1],
    requests: [req(2)],
    guestCells: null,
    ok: true,
    left: [[1, 1]],
  },
  {
    name: "vendor ids match case-insensitively",
    pools: [pool("10DE", "20B5", 0, 1, { dev_type: "type-PCI" })],
    sockets: [0],
    requests: [req(1)],
    guestCells: null,
    ok: true,
    left: [],
  },
];

describe("PCI pools: which requests a host can serve, and what is left", () => {
  it.each(CASES)("$name", (c) => {
    const stats = PciDeviceStats.fromPools(
      c.pools,
      c.sockets.map((socket, id) => ({ id, socket })),
    );
    const cells = c.guestCells?.map((id) => ({ id })) ?? null;
    const ok = stats.supportRequests(c.requests, cells);
    expect(ok).toBe(c.ok);
    if (ok) stats.applyRequests(c.requests, cells);
    expect(stats.pools.map((p) => [p.props.get("numa_node"), p.count])).toEqual(c.left);
  });
});
