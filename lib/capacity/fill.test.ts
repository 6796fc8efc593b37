/**
 * Integration: a capacity form naming what the database does not hold is
 * refused with the field and the rule, before any fill runs.
 */
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { importCloud } from "@/lib/cloud/scenario-io";
import { createTestDatabaseOf, PROVIDERS, type TestDatabase } from "@/lib/testing/test-db";
import { allFlavors, CapacityInputError, compareProfiles, prepareFill } from "./fill";

const CLOUD = {
  config: { enabled_filters: ["ComputeFilter"] },
  hosts: [
    { name: "h1", vcpus: 16, memory_mb: 65536, local_gb: 500 },
    { name: "h2", vcpus: 16, memory_mb: 65536, local_gb: 500 },
  ],
  flavors: [
    { name: "m1.small", id: "2", vcpus: 1, memory_mb: 2048, root_gb: 10, extra_specs: { "hw:cpu_policy": "shared" } },
    { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40 },
  ],
};

const mix = (...flavors: string[]) => flavors.map((flavor) => ({ flavor, share: 1 / flavors.length }));

describe.each(PROVIDERS)("capacity forms against the cloud (%s)", (provider) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabaseOf(provider, inject("postgresUrl"));
    await importCloud(t.prisma, CLOUD, { profileName: "stack" });
    await t.prisma.schedulerProfile.create({ data: { name: "spread", config: "{}" } });
  });
  afterAll(async () => t?.cleanup());

  it.each([
    [
      "an unknown flavor in the mix",
      { mix: mix("m1.small", "m1.nope") },
      "mix.1.flavor",
      'flavor: unknown flavor "m1.nope"',
    ],
    [
      "an unknown profile",
      { profile: "nope", mix: mix("m1.small") },
      "profile",
      'profile: scheduler profile "nope" does not exist',
    ],
  ])("a fill with %s is refused", async (_what, form, field, message) => {
    const err = await prepareFill(t.prisma, { limit: 10, ...form }).catch((e) => e);
    expect(err).toBeInstanceOf(CapacityInputError);
    expect([err.field, err.message]).toEqual([field, message]);
  });

  it.each([
    [
      "an unknown flavor in the mix",
      { profile: "stack", profileB: "spread", mix: mix("m1.nope") },
      "mix.0.flavor",
      'flavor: unknown flavor "m1.nope"',
    ],
    [
      "an unknown profile A",
      { profile: "nope", profileB: "spread", mix: mix("m1.small") },
      "profile",
      'profile: scheduler profile "nope" does not exist',
    ],
    [
      "an unknown profile B",
      { profile: "stack", profileB: "nope", mix: mix("m1.small") },
      "profileB",
      'profileB: scheduler profile "nope" does not exist',
    ],
  ])("an A/B with %s is refused", async (_what, form, field, message) => {
    const err = await compareProfiles(t.prisma, { limit: 10, ...form }).catch((e) => e);
    expect(err).toBeInstanceOf(CapacityInputError);
    expect([err.field, err.message]).toEqual([field, message]);
  });

  it("a form naming what exists prepares the fill on every host under the named profile", async () => {
    const r = await prepareFill(t.prisma, { profile: "spread", limit: 10, mix: mix("m1.small", "m1.large") });
    expect([r.profileName, r.hostCount]).toEqual(["spread", 2]);
  });

  it("lists every flavor by name as a request carries it (for the form and for fragmentation)", async () => {
    expect(await allFlavors(t.prisma)).toEqual([
      { name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40, ephemeral_gb: 0, swap: 0, extra_specs: {} },
      {
        name: "m1.small",
        id: "2",
        vcpus: 1,
        memory_mb: 2048,
        root_gb: 10,
        ephemeral_gb: 0,
        swap: 0,
        extra_specs: { "hw:cpu_policy": "shared" },
      },
    ]);
  });
});
