// NumInstancesFilter, AggregateNumInstancesFilter, IoOpsFilter,
// AggregateIoOpsFilter, MetricsFilter: expected verdicts read from Nova's
// num_instances_filter.py, io_ops_filter.py and metrics_filter.py (a host
// passes while its count is strictly below the limit; an aggregate's
// max_*_per_host overrides the option with the minimum of its values, and an
// unparsable one falls back to the option).
import { describe, expect, it } from "vitest";
import { host, verdicts, type Case } from "@/lib/scheduler/testing";
import type { ScenarioAggregate, ScenarioConfig } from "../scenario";
import { AggregateIoOpsFilter } from "./aggregate-io-ops";
import { AggregateNumInstancesFilter } from "./aggregate-num-instances";
import { IoOpsFilter } from "./io-ops";
import { MetricsFilter } from "./metrics";
import { NumInstancesFilter } from "./num-instances";

const rejected = (reason: RegExp) => expect.stringMatching(reason);

describe("NumInstancesFilter", () => {
  it.each([
    ["below the default max (50)", 49, {}, null],
    ["at the default max", 50, {}, /50 instances already \(max 50\)/],
    ["below a configured max", 2, { max_instances_per_host: 3 }, null],
    ["at a configured max", 3, { max_instances_per_host: 3 }, /3 instances already \(max 3\)/],
  ])("%s", (_, n, config: ScenarioConfig, expected) => {
    const got = verdicts(NumInstancesFilter, { hosts: [host("a", { num_instances: n })], config }).a;
    expect(got).toEqual(expected === null ? null : rejected(expected));
  });
});

describe("AggregateNumInstancesFilter", () => {
  const cloud = (metadata: ScenarioAggregate["metadata"][], config: ScenarioConfig = {}): Case => ({
    hosts: [host("a", { num_instances: 4 })],
    aggregates: metadata.map((m, i) => ({ name: `agg${i}`, hosts: ["a"], metadata: m })),
    config,
  });
  it.each([
    ["no aggregate value: the option (50)", cloud([]), null],
    ["aggregate max 5 > 4 instances", cloud([{ max_instances_per_host: "5" }]), null],
    ["aggregate max 4 = 4 instances", cloud([{ max_instances_per_host: "4" }]), /aggregate max 4/],
    [
      "the minimum of two aggregates' values",
      cloud([{ max_instances_per_host: "10" }, { max_instances_per_host: "3" }]),
      /aggregate max 3/,
    ],
    [
      "an unparsable value falls back to the option",
      cloud([{ max_instances_per_host: "many" }], { max_instances_per_host: 4 }),
      /aggregate max 4/,
    ],
  ])("%s", (_, c, expected) => {
    expect(verdicts(AggregateNumInstancesFilter, c).a).toEqual(expected === null ? null : rejected(expected));
  });
});

describe("IoOpsFilter", () => {
  it.each([
    ["below the default max (8)", 7, {}, null],
    ["at the default max", 8, {}, /8 I\/O operations in progress \(max 8\)/],
    ["max 0 refuses every host", 0, { max_io_ops_per_host: 0 }, /0 I\/O operations in progress \(max 0\)/],
  ])("%s", (_, n, config: ScenarioConfig, expected) => {
    const got = verdicts(IoOpsFilter, { hosts: [host("a", { num_io_ops: n })], config }).a;
    expect(got).toEqual(expected === null ? null : rejected(expected));
  });
});

describe("AggregateIoOpsFilter", () => {
  it.each([
    ["aggregate max 3 > 2 ops", "3", 2, null],
    ["aggregate max 2 = 2 ops", "2", 2, /2 I\/O operations in progress \(aggregate max 2\)/],
    ["an unparsable value: the option (8)", "x", 7, null],
  ])("%s", (_, max, ops, expected) => {
    const c: Case = {
      hosts: [host("a", { num_io_ops: ops })],
      aggregates: [{ name: "io", hosts: ["a"], metadata: { max_io_ops_per_host: max } }],
    };
    expect(verdicts(AggregateIoOpsFilter, c).a).toEqual(expected === null ? null : rejected(expected));
  });
});

describe("MetricsFilter", () => {
  it("needs every metric named in metrics.weight_setting", () => {
    const c: Case = {
      hosts: [
        host("both", {
          metrics: [
            { name: "cpu.frequency", value: 2400 },
            { name: "cpu.user.time", value: 5 },
          ],
        }),
        host("one", { metrics: [{ name: "cpu.frequency", value: 2400 }] }),
        host("none"),
      ],
      config: { metrics_weight_setting: ["cpu.frequency=1.0", "cpu.user.time=-1.0"] },
    };
    expect(verdicts(MetricsFilter, c)).toEqual({
      both: null,
      one: rejected(/missing metric cpu\.user\.time$/),
      none: rejected(/missing metric cpu\.frequency, cpu\.user\.time/),
    });
  });

  it("passes every host when no metric is weighed", () => {
    expect(verdicts(MetricsFilter, { hosts: [host("none")] })).toEqual({ none: null });
  });
});
