import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { toResult } from "../result";
import type { Scenario, ScenarioHost } from "../scenario";

const UUID = "11111111-1111-4111-8111-000000000001";
const M1 = { id: "m1", name: "m1.medium", vcpus: 2, memory_mb: 4096, root_gb: 20 };
const M2 = { id: "m2", name: "m1.large", vcpus: 4, memory_mb: 8192, root_gb: 40 };

function host(name: string, extra: Partial<ScenarioHost> = {}): ScenarioHost {
  return { name, vcpus: 16, memory_mb: 32768, local_gb: 500, vcpus_used: 0, memory_mb_used: 0, ...extra };
}

/** Three hosts; the instance runs on h1 (its usage counted there). */
function scenario(request: Record<string, unknown>, h1: Partial<ScenarioHost> = {}, config = {}): Scenario {
  return {
    config: { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"], ...config },
    hosts: [
      host("h1", { instances: [UUID], vcpus_used: 2, memory_mb_used: 4096, local_gb_used: 20, ...h1 }),
      host("h2", { memory_mb_used: 8192 }),
      host("h3", { cell: "cell2" }),
    ],
    request: { instance: { uuid: UUID, host: "h1", flavor: M1 }, ...request } as unknown as Scenario["request"],
  };
}

const run = (s: Scenario) => toResult(schedule(s));
const DOWN = { service: { up: false } };

describe("errors Nova raises before scheduling a move", () => {
  it.each([
    ["resize to the same flavor", { operation: "resize", flavor: M1 }, {}, "CannotResizeToSameFlavor"],
    ["resize to a zero disk", { operation: "resize", flavor: { ...M2, root_gb: 0 } }, {}, "CannotResizeDisk"],
    ["resize off a down host", { operation: "resize", flavor: M2 }, DOWN, "ServiceUnavailable"],
    ["migrate off a down host", { operation: "migrate" }, DOWN, "ServiceUnavailable"],
    ["migrate to its own host", { operation: "migrate", target_host: "h1" }, {}, "CannotMigrateToSameHost"],
    ["migrate to an unknown host", { operation: "migrate", target_host: "nope" }, {}, "ComputeHostNotFound"],
    ["migrate to another cell's host", { operation: "migrate", target_host: "h3" }, {}, "ComputeHostNotFound"],
    ["live-migrate off a down host", { operation: "live-migrate" }, DOWN, "ComputeServiceUnavailable"],
    ["evacuate off an up host", { operation: "evacuate" }, {}, "ComputeServiceInUse"],
    ["evacuate to its own host", { operation: "evacuate", target_host: "h1" }, DOWN, "HTTPBadRequest"],
    ["force without a target", { operation: "evacuate", force: true }, DOWN, "HTTPBadRequest"],
  ])("%s: %s", (_what, request, h1, error) => {
    const r = run(scenario(request, h1));
    expect(r.error).toBe(error);
    expect(r.requests).toEqual([]);
  });
  it("resizes a volume-backed instance to a zero-disk flavor", () => {
    expect(run(scenario({ operation: "resize", flavor: { ...M2, root_gb: 0 }, is_bfv: true })).error).toBeNull();
  });
});

describe("scenarios that do not describe a move", () => {
  it.each([
    ["an unknown operation", { operation: "rebuild" }, /operation must be one of/],
    ["a server group of its own", { operation: "migrate", server_group: "g" }, /server_group is not part of a move/],
    ["ignore_hosts", { operation: "migrate", ignore_hosts: ["h2"] }, /ignore_hosts is not part of a move/],
    ["two instances", { operation: "migrate", num_instances: 2 }, /num_instances must be 1/],
    ["a resize without a flavor", { operation: "resize" }, /resize needs request.flavor/],
    ["a migrate with a flavor", { operation: "migrate", flavor: M2 }, /new flavor of a resize/],
    ["a resize with a target", { operation: "resize", flavor: M2, target_host: "h2" }, /use migrate/],
    ["request.image", { operation: "migrate", image: { id: "x" } }, /request.instance.image/],
    ["an unshelve of a placed instance", { operation: "unshelve" }, /shelved-offloaded/],
    ["a force on a migrate", { operation: "migrate", force: true, target_host: "h2" }, /force is only for/],
  ])("%s", (_what, request, message) => {
    const r = run(scenario(request));
    expect(r.error).toBe("ScenarioError");
    expect(r.message).toMatch(message);
  });
  it("an instance its host does not list", () => {
    const r = run(scenario({ operation: "migrate" }, { instances: [] }));
    expect(r.error).toBe("ScenarioError");
  });
});

describe("the RequestSpec of a move", () => {
  it("ignores the source of a migration and keeps to the source's cell", () => {
    const r = run(scenario({ operation: "migrate" }));
    expect(r.move?.request_spec?.ignore_hosts).toEqual(["h1"]);
    expect(r.move?.request_spec?.requested_destination).toEqual({
      host: null,
      node: null,
      cell: "cell1",
      allow_cross_cell_move: false,
    });
    expect(r.requests[0].funnel[0].in).toBe(1); // h1 ignored, h3 in cell2
    expect(r.selections[0].host).toBe("h2");
  });
  it.each([
    [false, "h2"],
    [true, "h1"],
  ])("allow_resize_to_same_host=%s sends a resize to %s", (allow, chosen) => {
    const r = run(scenario({ operation: "resize", flavor: M2 }, {}, { allow_resize_to_same_host: allow }));
    expect(r.selections[0].host).toBe(chosen);
    expect(r.move?.request_spec?.ignore_hosts).toEqual(allow ? [] : ["h1"]);
  });
  it("checks a live migration's target with the filters and asks for no alternates", () => {
    const r = run(scenario({ operation: "live-migrate", target_host: "h2" }));
    expect(r.move?.request_spec?.requested_destination.host).toBe("h2");
    expect(r.move?.request_spec?.return_alternates).toBe(false);
    expect(r.selections).toEqual([{ host: "h2", alternates: [] }]);
  });
  it("finds the instance's group from its membership", () => {
    const s = scenario({ operation: "migrate" });
    s.server_groups = [{ name: "web", policy: "affinity", members: [UUID] }];
    s.config!.enabled_filters = ["ServerGroupAffinityFilter"];
    const r = run(s);
    // its only member runs on the ignored source: nowhere else is the group's host
    expect(r.move?.request_spec?.instance_group).toBe("web");
    expect(r.error).toBe("NoValidHost");
  });
  it("moves the source allocation to a migration consumer on the Placement path", () => {
    const r = run(
      scenario({ operation: "resize", flavor: M2 }, {}, { placement: true, allow_resize_to_same_host: true }),
    );
    expect(r.move?.source_allocation).toMatchObject({
      host: "h1",
      consumer: "migration",
      resources: { DISK_GB: 20, MEMORY_MB: 4096, VCPU: 2 },
    });
  });
  it("refuses a source whose usage does not hold the instance (Placement path)", () => {
    const r = run(scenario({ operation: "migrate" }, { memory_mb_used: 0 }, { placement: true }));
    expect(r.error).toBe("ScenarioError");
    expect(r.message).toMatch(/must include instance/);
  });
});

describe("Nova's conductor around the scheduler (live-migrate, forced moves, unshelve to a host)", () => {
  it.each([
    ["a forced evacuation goes to its target", { operation: "evacuate", target_host: "h2", force: true }, DOWN, false],
    [
      "a forced live migration checks the target's memory",
      { operation: "live-migrate", target_host: "h2", force: true },
      {},
      true,
    ],
  ])("%s", (_what, request, h1, destinationChecks) => {
    const r = run(scenario(request, h1));
    expect(r.error).toBeNull();
    expect(r.selections.map((x) => x.host)).toEqual(["h2"]);
    expect(r.requests).toEqual([]);
    // only a live migration leaves checks to the destination compute
    if (destinationChecks) expect(r.not_checked).toMatch(/^not checked: the destination compute's own pre-checks/);
    else expect(r.not_checked).toBeUndefined();
  });
  it.each([
    ["down", { service: { up: false } }, "ComputeServiceUnavailable"],
    ["short of memory", { memory_mb_used: 30720 }, "MigrationPreCheckError"],
    ["of another hypervisor", { hypervisor_type: "VMware vCenter Server" }, "InvalidHypervisorType"],
    ["older", { hypervisor_version: 1000 }, "DestinationHypervisorTooOld"],
  ])("a forced live migration to a target %s: %s", (_what, h2, error) => {
    const s = scenario({ operation: "live-migrate", target_host: "h2", force: true });
    Object.assign(s.hosts[1], h2);
    const r = run(s);
    expect(r.error).toBe(error);
    expect(r.not_checked).toBeUndefined();
  });
  it("a live migration skips a host the conductor refuses and schedules again", () => {
    const s = scenario({ operation: "live-migrate" });
    s.hosts.push(host("h4", { hypervisor_version: 1000 })); // emptiest: the scheduler's first choice
    const r = run(s);
    expect(r.selections[0].host).toBe("h2");
    expect(r.move?.skipped_hosts?.map((x) => [x.host, x.error])).toEqual([["h4", "DestinationHypervisorTooOld"]]);
    expect(r.move?.request_spec?.ignore_hosts).toEqual(["h1", "h4"]);
    expect(r.not_checked).toMatch(/CPU model compatibility/);
  });
  it("reports no skipped hosts when the first host passes", () => {
    expect(run(scenario({ operation: "live-migrate" })).move).not.toHaveProperty("skipped_hosts");
  });
  it.each([
    [-1, null, ["h1", "h4", "h5"], "h2"],
    [2, null, ["h1", "h4", "h5"], "h2"],
    [1, "MaxRetriesExceeded", ["h1", "h4"], null],
    [0, "MaxRetriesExceeded", ["h1"], null],
  ])("migrate_max_retries=%s: %s after ignoring %j", (retries, error, ignored, chosen) => {
    const s = scenario({ operation: "live-migrate" }, {}, { migrate_max_retries: retries });
    s.hosts.push(host("h4", { hypervisor_version: 1000 }), host("h5", { hypervisor_type: "VMware vCenter Server" }));
    const r = run(s);
    expect(r.error).toBe(error);
    expect(r.move?.request_spec?.ignore_hosts).toEqual(ignored);
    expect(r.selections.map((x) => x.host)).toEqual(chosen ? [chosen] : []);
    if (error)
      expect(r.message).toBe(
        `Exceeded maximum number of retries. Exceeded max scheduling retries ${retries + 1} for instance ${UUID} during live migration`,
      );
  });
  it("refuses migrate_max_retries below -1", () => {
    const r = run(scenario({ operation: "live-migrate" }, {}, { migrate_max_retries: -2 }));
    expect(r.error).toBe("ValueError");
    expect(r.message).toMatch(/migrate_max_retries/);
  });
  it("compares the source host's first node, not the instance's own", () => {
    // h1 has two nodes: the instance runs on the second, of a newer version than h2
    const s = scenario({ operation: "live-migrate" });
    const first = host("h1", { node: "h1-a", hypervisor_version: 6002000 });
    Object.assign(s.hosts[0], { node: "h1-b", hypervisor_version: 7000000 });
    s.hosts.unshift(first);
    s.request.instance = { uuid: UUID, host: "h1", node: "h1-b", flavor: M1 } as never;
    const r = run(s);
    expect(r.move).not.toHaveProperty("skipped_hosts");
    expect(r.selections[0].host).toBe("h2");
  });
  it.each([
    ["outside the requested zone", "h2", ["h1"], "UnshelveHostNotInAZ"],
    ["in the requested zone", "h2", ["h2"], null],
    ["of another cell", "h3", ["h3"], "ComputeHostNotFound"],
  ])("an unshelve to a host %s: %s", (_what, target, zoneHosts, error) => {
    const s = scenario({ operation: "unshelve", target_host: target, availability_zone: "az1" }, { instances: [] });
    s.request.instance = { uuid: UUID, flavor: M1 };
    s.aggregates = [{ name: "a", availability_zone: "az1", hosts: zoneHosts }];
    const r = run(s);
    expect(r.error).toBe(error);
    if (!error) expect(r.selections[0].host).toBe(target);
  });
});
