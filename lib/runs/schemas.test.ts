import { describe, expect, it } from "vitest";
import { parseHostsQuery } from "./api";
import { capacityProblem, demandOf, type HostCapacity } from "./commit-room";
import { EMPTY_FORM, requestToFormValues } from "./form-values";
import { checkRequest, formToRequestParts, ScheduleFormSchema, splitList, validateScheduleForm } from "./schemas";

const UUID1 = "0d8a0b1c-6f7e-4c55-9d0e-2a1b3c4d5e6f";
const UUID2 = "8d0b0b3c-6f7e-4c55-9d0e-2a1b3c4d5e6f";
const base = { ...EMPTY_FORM, flavor: "m1.small" };

describe("ScheduleFormSchema: field errors", () => {
  it.each([
    ["no flavor", { flavor: "" }, "flavor", /choose a flavor/],
    ["0 instances", { num_instances: "0" }, "num_instances", /must be an integer >= 1 \(got 0\)/],
    ["too many instances", { num_instances: "101" }, "num_instances", /at most 100/],
    ["a fraction", { num_instances: "1.5" }, "num_instances", /must be an integer >= 1/],
    ["not a number", { num_instances: "abc" }, "num_instances", /must be an integer >= 1 \(got "abc"\)/],
    ["empty count", { num_instances: "" }, "num_instances", /is required/],
    ["a bad uuid in same_host", { same_host: `${UUID1}, nope` }, "same_host", /"nope" is not an instance uuid/],
    ["a bad uuid in different_host", { different_host: "x" }, "different_host", /different_host takes instance uuids/],
    ["query not JSON", { query: '[">=", "$free_ram_mb"' }, "query", /not valid JSON/],
    ["query not an expression", { query: '{"a": 1}' }, "query", /must be a JsonFilter expression/],
    ["query unknown operator", { query: '["~", "$x", 1]' }, "query", /must be a JsonFilter expression/],
    ["bad IP", { build_near_host_ip: "10.0.0.300" }, "build_near_host_ip", /IPv4 or IPv6/],
    ["cidr without IP", { cidr: "/24" }, "cidr", /needs build_near_host_ip/],
    ["cidr malformed", { build_near_host_ip: "10.0.0.1", cidr: "24" }, "cidr", /prefix length/],
    ["cidr too long for IPv4", { build_near_host_ip: "10.0.0.1", cidr: "/33" }, "cidr", /\/0 to \/32/],
    ["bad project id", { project_id: "a b" }, "project_id", /must be a project id/],
  ])("%s", (_name, patch, field, message) => {
    const r = validateScheduleForm({ ...base, ...patch });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(Object.keys(r.fieldErrors)).toEqual([field]);
    expect(r.fieldErrors[field].join(" ")).toMatch(message);
  });

  it.each([
    ["the defaults", {}],
    ["IPv6 with /64", { build_near_host_ip: "fd00::1", cidr: "/64" }],
    [
      "every hint",
      {
        same_host: `${UUID1}\n${UUID2}`,
        different_host: UUID2,
        query: '["and", [">=", "$free_ram_mb", 1], ["<", "$num_instances", 5]]',
      },
    ],
    [
      "a profile and a zone",
      { profile: "stacking", availability_zone: "az1", project_id: "3f6a1c2e9b8d4f0aa1b2c3d4e5f60718" },
    ],
  ])("accepts %s", (_name, patch) => {
    expect(validateScheduleForm({ ...base, ...patch }).ok).toBe(true);
  });
});

describe("formToRequestParts", () => {
  it("builds the request's scalars and hints, leaving empty fields out", () => {
    const f = ScheduleFormSchema.parse({
      ...base,
      num_instances: " 3 ",
      availability_zone: "az2",
      same_host: `${UUID1}, ${UUID2}`,
      query: '[">=", "$free_ram_mb", 1024]',
      build_near_host_ip: "10.1.1.11",
      cidr: "/24",
    });
    expect(formToRequestParts(f)).toEqual({
      num_instances: 3,
      availability_zone: "az2",
      scheduler_hints: {
        same_host: [UUID1, UUID2],
        query: '[">=", "$free_ram_mb", 1024]',
        build_near_host_ip: "10.1.1.11",
        cidr: "/24",
      },
    });
    expect(formToRequestParts(ScheduleFormSchema.parse(base))).toEqual({ num_instances: 1 });
  });

  it("round-trips through the form values of a stored request", () => {
    const f = ScheduleFormSchema.parse({
      ...base,
      num_instances: "2",
      different_host: UUID1,
      server_group: UUID2,
      profile: "stacking",
    });
    const req = { flavor: { name: "m1.small", vcpus: 1, memory_mb: 2048 }, ...formToRequestParts(f) };
    const back = { ...EMPTY_FORM, ...requestToFormValues(req, "stacking", "default") };
    expect(ScheduleFormSchema.parse(back)).toEqual(f);
    // the active profile is the form's default (empty)
    expect(requestToFormValues(req, "default", "default").profile).toBe("");
  });

  it("checks the assembled request against the scenario format", () => {
    expect(checkRequest({ flavor: { name: "m1", vcpus: 1, memory_mb: 1 }, num_instances: 1 })).toEqual([]);
    expect(checkRequest({ flavor: { name: "m1", vcpus: -1, memory_mb: 1 } }).join()).toMatch(/^flavor\.vcpus: /);
  });

  it.each([
    ["a, b\nc;d", ["a", "b", "c", "d"]],
    ["  ", []],
    [undefined, []],
  ])("splitList(%j)", (text, list) => expect(splitList(text)).toEqual(list));
});

describe("capacity (the commit's re-check)", () => {
  const host: HostCapacity = {
    name: "h",
    vcpus: 10,
    vcpusUsed: 0,
    memoryMb: 10240,
    memoryMbUsed: 0,
    localGb: 100,
    localGbUsed: 0,
    freeRamMb: null,
    freeDiskGb: null,
    diskAvailableLeast: null,
    reservedVcpus: 0,
    reservedMemoryMb: 0,
    reservedDiskGb: 0,
    cpuAllocationRatio: 1,
    ramAllocationRatio: 1,
    diskAllocationRatio: 1,
    serviceDisabled: false,
    serviceUp: true,
    forcedDown: false,
  };
  const f = { vcpus: 2, memory_mb: 2048, root_gb: 10, ephemeral_gb: 5, swap: 512 };
  it.each([
    ["room", {}, 1, null],
    ["exactly full after", { memoryMbUsed: 8192 }, 1, null],
    ["RAM short", { memoryMbUsed: 8193 }, 1, /^MEMORY_MB: 2047 MB free < 2048 MB needed$/],
    ["free_ram_mb override counts", { freeRamMb: 1000 }, 1, /^MEMORY_MB/],
    ["RAM overcommit allows it", { memoryMbUsed: 10240, ramAllocationRatio: 1.5 }, 1, null],
    ["reserved memory is not for instances", { reservedMemoryMb: 9000 }, 1, /^MEMORY_MB/],
    ["vCPU short for two", { vcpusUsed: 7 }, 2, /^VCPU: 3 free < 4 needed$/],
    ["vCPU overcommit", { vcpusUsed: 7, cpuAllocationRatio: 2 }, 2, null],
    ["disk incl. swap (16 GB)", { localGbUsed: 85 }, 1, /^DISK_GB: 15 GB free < 16 GB needed$/],
    ["disk_available_least lower", { diskAvailableLeast: 10 }, 1, /^DISK_GB/],
    ["disabled", { serviceDisabled: true }, 1, /disabled/],
    ["down", { serviceUp: false }, 1, /down/],
    ["forced down", { forcedDown: true }, 1, /down/],
  ])("%s", (_n, patch, count, want) => {
    const why = capacityProblem({ ...host, ...patch }, demandOf(f, count));
    if (want === null) expect(why).toBeNull();
    else expect(why).toMatch(want);
  });
});

describe("parseHostsQuery (API)", () => {
  it.each([
    ["", { view: "weighed", index: 0, offset: 0, limit: 25, q: undefined }],
    ["view=fate&q=cmp-1&index=2", { view: "fate", index: 2, offset: 0, limit: 25, q: "cmp-1" }],
    ["view=rejected&offset=50&limit=10", { view: "rejected", index: 0, offset: 50, limit: 10, q: undefined }],
  ])("%j", (qs, want) => expect(parseHostsQuery(new URLSearchParams(qs))).toEqual(want));

  it.each([
    ["view=nope", /^view: /],
    ["index=-1", /^index: /],
    ["offset=x", /^offset: /],
    ["limit=1.5", /^limit: /],
  ])("rejects %j", (qs, msg) => expect(parseHostsQuery(new URLSearchParams(qs))).toMatch(msg));
});
