/**
 * The adapter against a local cloud that answers in the real cloud's shapes:
 * it reads everything the bundle holds (paging through lists), and it only
 * reads — apart from Keystone's token request every request is a GET, and
 * the password travels in that one request body only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareBundle } from "@/lib/openstack/import";
import { collectBundle } from "./collect";
import { ApiError } from "./http";
import { nodeFetch } from "./transport";
import { FAKE_PASSWORD, type FakeCloud, startFakeCloud } from "./testing/fake-cloud";

let cloud: FakeCloud;
beforeAll(async () => {
  cloud = await startFakeCloud({ hosts: 23, serversPerHost: 3, flavors: 7, images: 5, aggregates: 2, serverGroups: 2 });
});
afterAll(() => cloud.close());

describe("collectBundle", () => {
  it("reads the whole cloud, paged, and the bundle converter accepts it", async () => {
    cloud.requests.length = 0;
    const steps = new Set<string>();
    const c = await collectBundle({
      fetch: nodeFetch(),
      settings: cloud.settings,
      pageSize: 10,
      concurrency: 4,
      progress: (p) => steps.add(p.step),
    });
    const prepared = prepareBundle(c.bundle);
    expect(prepared.counts).toEqual({
      hosts: 23,
      aggregates: 2,
      flavors: 7,
      images: 5,
      serverGroups: 2,
      instances: 69,
    });
    expect(c.microversions).toEqual({ compute: "2.93", placement: "1.39" });
    // 23 hypervisors and 69 servers at 10 a page: 3 and 7 pages
    expect(cloud.requests.filter((r) => r.path.includes("/os-hypervisors/detail"))).toHaveLength(3);
    expect(cloud.requests.filter((r) => r.path.includes("/servers/detail"))).toHaveLength(7);
    const host = prepared.doc.hosts.find((h) => h.name === "cmp-00010") as Record<string, unknown>;
    expect(host.child_providers).toEqual([
      expect.objectContaining({
        name: "cmp-00010-child",
        inventories: { CUSTOM_MAGIC: expect.objectContaining({ total: 10 }) },
      }),
    ]);
    expect(host.instances).toHaveLength(3);
    expect(steps).toContain("provider details");
    // Placement's aggregates of Nova's aggregates, by member_of
    const rpAggs = c.bundle.json["resource-provider-aggregate.json"] as Record<string, { uuid: string }[]>;
    expect(rpAggs[host.uuid as string]).toEqual([{ uuid: "00000006-0000-4000-8000-000000000001" }]);
    expect(c.notes.join(" ")).toMatch(/nova\.conf is in no API/);
  });

  it("sends GET only, apart from the one token request, and the password only in that body", async () => {
    cloud.requests.length = 0;
    await collectBundle({ fetch: nodeFetch(), settings: cloud.settings });
    const notGet = cloud.requests.filter((r) => r.method !== "GET");
    expect(notGet.map((r) => `${r.method} ${r.path}`)).toEqual(["POST /identity/v3/auth/tokens"]);
    expect(cloud.requests.length).toBeGreaterThan(23 * 3);
    for (const r of cloud.requests) {
      expect(r.path).not.toContain(FAKE_PASSWORD);
      expect(JSON.stringify(r.headers)).not.toContain(FAKE_PASSWORD);
    }
  });

  it("a wrong password is a 401 naming Keystone's endpoint", async () => {
    const e = await collectBundle({
      fetch: nodeFetch(),
      settings: { ...cloud.settings, password: "not-the-Pa55word" },
    }).catch((x) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect(e.message).toMatch(/Keystone token: .*\/identity\/v3\/auth\/tokens answered 401/);
    expect(e.message).not.toContain("not-the-Pa55word");
  });
});
