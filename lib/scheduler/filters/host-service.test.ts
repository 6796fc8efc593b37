// AllHostsFilter, ComputeFilter, AvailabilityZoneFilter: one pass and one
// reject each, expected verdicts read from Nova's filters
// (nova/scheduler/filters/{all_hosts,compute,availability_zone}_filter.py).
import { describe, expect, it } from "vitest";
import { host, verdicts, type Case } from "@/lib/scheduler/testing";
import { AllHostsFilter } from "./all-hosts";
import { AvailabilityZoneFilter } from "./availability-zone";
import { ComputeFilter } from "./compute";

const rejected = (reason: RegExp) => expect.stringMatching(reason);

describe("AllHostsFilter", () => {
  it("passes every host, even a disabled one", () => {
    const c: Case = { hosts: [host("a"), host("b", { service: { disabled: true, up: false } })] };
    expect(verdicts(AllHostsFilter, c)).toEqual({ a: null, b: null });
  });
});

describe("ComputeFilter", () => {
  it.each([
    ["enabled and up", { disabled: false, up: true }, null],
    [
      "disabled, with its reason",
      { disabled: true, disabled_reason: "maintenance", up: true },
      /disabled \(maintenance\)/,
    ],
    ["disabled, no reason", { disabled: true, up: true }, /^compute service disabled$/],
    ["down", { disabled: false, up: false }, /^compute service down \(not heard from\)$/],
    ["forced down: named as such, not as silent", { disabled: false, up: false, forced_down: true }, /forced down/],
  ])("%s", (_, service, expected) => {
    const got = verdicts(ComputeFilter, { hosts: [host("a", { service })] }).a;
    expect(got).toEqual(expected === null ? null : rejected(expected));
  });
});

describe("AvailabilityZoneFilter", () => {
  const cloud: Case = {
    hosts: [host("in-az1"), host("in-az2"), host("no-az")],
    aggregates: [
      { name: "agg1", availability_zone: "az1", hosts: ["in-az1"] },
      { name: "agg2", availability_zone: "az2", hosts: ["in-az2"] },
    ],
  };
  it.each([
    ["no zone requested: every host", undefined, undefined, { "in-az1": null, "in-az2": null, "no-az": null }],
    [
      "az1: its aggregate's hosts only",
      "az1",
      undefined,
      {
        "in-az1": null,
        "in-az2": rejected(/in availability zone az2, not az1/),
        "no-az": rejected(/default availability zone nova, not az1/),
      },
    ],
    [
      "nova: hosts in no zone are in default_availability_zone",
      "nova",
      undefined,
      { "in-az1": rejected(/az1, not nova/), "in-az2": rejected(/az2, not nova/), "no-az": null },
    ],
    [
      "a changed default_availability_zone",
      "edge",
      "edge",
      { "in-az1": rejected(/az1, not edge/), "in-az2": rejected(/az2, not edge/), "no-az": null },
    ],
  ])("%s", (_, az, defaultAz, expected) => {
    const c: Case = {
      ...cloud,
      request: { availability_zone: az },
      config: defaultAz ? { default_availability_zone: defaultAz } : undefined,
    };
    expect(verdicts(AvailabilityZoneFilter, c)).toEqual(expected);
  });
});
