// DifferentHostFilter, SameHostFilter, SimpleCIDRAffinityFilter,
// ServerGroupAffinityFilter, ServerGroupAntiAffinityFilter: expected verdicts
// read from Nova's affinity_filter.py (hints in Nova's list form; an
// anti-affinity host passes while it runs fewer than max_server_per_host
// members, default 1; an affinity group with no member placed yet allows
// every host).
import { describe, expect, it } from "vitest";
import { host, verdicts, type Case } from "@/lib/scheduler/testing";
import type { ScenarioServerGroup } from "../scenario";
import { DifferentHostFilter } from "./different-host";
import { SameHostFilter } from "./same-host";
import { ServerGroupAffinityFilter } from "./server-group-affinity";
import { ServerGroupAntiAffinityFilter } from "./server-group-anti-affinity";
import { SimpleCIDRAffinityFilter } from "./simple-cidr-affinity";

const rejected = (reason: RegExp) => expect.stringMatching(reason);

const U1 = "11111111-1111-1111-1111-111111111111";
const U2 = "22222222-2222-2222-2222-222222222222";
const U3 = "33333333-3333-3333-3333-333333333333";
const hosts = [host("runs-u1", { instances: [U1] }), host("runs-u2", { instances: [U2, U3] }), host("empty")];

describe("DifferentHostFilter", () => {
  it.each([
    ["no hint: every host", undefined, { "runs-u1": null, "runs-u2": null, empty: null }],
    ["one instance", U1, { "runs-u1": rejected(new RegExp(`running instance ${U1}`)), "runs-u2": null, empty: null }],
    [
      "a list of instances",
      [U1, U3],
      { "runs-u1": rejected(new RegExp(U1)), "runs-u2": rejected(new RegExp(`running instance ${U3}`)), empty: null },
    ],
  ])("%s", (_, hint, expected) => {
    const c: Case = { hosts, request: { scheduler_hints: hint === undefined ? {} : { different_host: hint } } };
    expect(verdicts(DifferentHostFilter, c)).toEqual(expected);
  });
});

describe("SameHostFilter", () => {
  it.each([
    ["no hint: every host", undefined, { "runs-u1": null, "runs-u2": null, empty: null }],
    [
      "hosts running one of the instances",
      [U1, U2],
      { "runs-u1": null, "runs-u2": null, empty: rejected(/running none of the same_host instances/) },
    ],
    [
      "an instance nowhere: no host",
      ["44444444-4444-4444-4444-444444444444"],
      { "runs-u1": rejected(/none/), "runs-u2": rejected(/none/), empty: rejected(/none/) },
    ],
  ])("%s", (_, hint, expected) => {
    const c: Case = { hosts, request: { scheduler_hints: hint === undefined ? {} : { same_host: hint } } };
    expect(verdicts(SameHostFilter, c)).toEqual(expected);
  });
});

describe("SimpleCIDRAffinityFilter", () => {
  const near = [
    host("a", { host_ip: "10.0.0.9" }),
    host("b", { host_ip: "10.0.1.9" }),
    host("c", { host_ip: "10.1.0.9" }),
  ];
  it.each([
    ["no build_near_host_ip: every host", {}, { a: null, b: null, c: null }],
    [
      "the default /24",
      { build_near_host_ip: "10.0.0.5" },
      { a: null, b: rejected(/host IP 10\.0\.1\.9 outside 10\.0\.0\.5\/24/), c: rejected(/outside/) },
    ],
    [
      "cidr /16",
      { build_near_host_ip: "10.0.0.5", cidr: "/16" },
      { a: null, b: null, c: rejected(/host IP 10\.1\.0\.9 outside 10\.0\.0\.5\/16/) },
    ],
  ])("%s", (_, hints, expected) => {
    expect(verdicts(SimpleCIDRAffinityFilter, { hosts: near, request: { scheduler_hints: hints } })).toEqual(expected);
  });
});

const group = (policy: ScenarioServerGroup["policy"], members: string[], rules?: Record<string, string | number>) => ({
  hosts,
  server_groups: [{ name: "g", uuid: "99999999-9999-9999-9999-999999999999", policy, members, rules }],
  request: { server_group: "g" },
});

describe("ServerGroupAffinityFilter", () => {
  it.each([
    [
      "only the hosts of the group's members",
      group("affinity", [U2]),
      {
        "runs-u1": rejected(/not a host of affinity group g \(runs-u2\)/),
        "runs-u2": null,
        empty: rejected(/runs-u2/),
      },
    ],
    ["no member placed yet: every host", group("affinity", []), { "runs-u1": null, "runs-u2": null, empty: null }],
    ["another policy: every host", group("anti-affinity", [U2]), { "runs-u1": null, "runs-u2": null, empty: null }],
  ])("%s", (_, c, expected) => {
    expect(verdicts(ServerGroupAffinityFilter, c)).toEqual(expected);
  });
});

describe("ServerGroupAntiAffinityFilter", () => {
  it.each([
    [
      "a host running a member is out (max 1 per host)",
      group("anti-affinity", [U1, U2]),
      {
        "runs-u1": rejected(/already running 1 of anti-affinity group g \(max 1 per host\)/),
        "runs-u2": rejected(/already running 1/),
        empty: null,
      },
    ],
    [
      "max_server_per_host 2: a host with one member passes, with two does not",
      group("anti-affinity", [U1, U2, U3], { max_server_per_host: 2 }),
      {
        "runs-u1": null,
        "runs-u2": rejected(/already running 2 of anti-affinity group g \(max 2 per host\)/),
        empty: null,
      },
    ],
    ["another policy: every host", group("affinity", [U1]), { "runs-u1": null, "runs-u2": null, empty: null }],
  ])("%s", (_, c, expected) => {
    expect(verdicts(ServerGroupAntiAffinityFilter, c)).toEqual(expected);
  });
});
