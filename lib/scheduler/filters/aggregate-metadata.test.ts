// AggregateTypeAffinityFilter, AggregateMultiTenancyIsolation,
// AggregateImagePropertiesIsolation, AggregateInstanceExtraSpecsFilter,
// IsolatedHostsFilter: expected verdicts read from Nova's
// type_filter.py, aggregate_multitenancy_isolation.py,
// aggregate_image_properties_isolation.py,
// aggregate_instance_extra_specs.py and isolated_hosts_filter.py.
import { describe, expect, it } from "vitest";
import { host, verdicts, type Case } from "@/lib/scheduler/testing";
import type { ScenarioConfig } from "../scenario";
import { AggregateImagePropertiesIsolation } from "./aggregate-image-properties-isolation";
import { AggregateInstanceExtraSpecsFilter } from "./aggregate-instance-extra-specs";
import { AggregateMultiTenancyIsolation } from "./aggregate-multi-tenancy-isolation";
import { AggregateTypeAffinityFilter } from "./aggregate-type-affinity";
import { IsolatedHostsFilter } from "./isolated-hosts";

const rejected = (reason: RegExp) => expect.stringMatching(reason);
const hosts = [host("tagged"), host("other"), host("plain")];
const aggregates = (key: string, tagged: string | number, other: string | number) => [
  { name: "agg-tagged", hosts: ["tagged"], metadata: { [key]: tagged } },
  { name: "agg-other", hosts: ["other"], metadata: { [key]: other } },
];

describe("AggregateTypeAffinityFilter", () => {
  it.each([
    [
      "a flavor listed (comma-separated, spaces stripped)",
      "m1.small",
      { tagged: null, other: rejected(/flavor m1\.small not in aggregate instance_type=m1\.large/), plain: null },
    ],
    [
      "a flavor listed nowhere: only hosts without instance_type",
      "m1.tiny",
      {
        tagged: rejected(/flavor m1\.tiny not in aggregate instance_type=m1\.small,m1\.medium/),
        other: rejected(/m1\.large/),
        plain: null,
      },
    ],
  ])("%s", (_, flavor, expected) => {
    const c: Case = {
      hosts,
      aggregates: aggregates("instance_type", "m1.small, m1.medium", "m1.large"),
      request: { flavor: { name: flavor } },
    };
    expect(verdicts(AggregateTypeAffinityFilter, c)).toEqual(expected);
  });
});

describe("AggregateMultiTenancyIsolation", () => {
  it.each([
    [
      "the project named by one aggregate",
      "p-1",
      { tagged: null, other: rejected(/project p-1 not in aggregate filter_tenant_id=p-3/), plain: null },
    ],
    [
      "a project named nowhere: only hosts without filter_tenant_id",
      "p-9",
      {
        tagged: rejected(/project p-9 not in aggregate filter_tenant_id=p-1,p-2/),
        other: rejected(/p-3/),
        plain: null,
      },
    ],
  ])("%s", (_, project, expected) => {
    const c: Case = {
      hosts,
      aggregates: aggregates("filter_tenant_id", "p-1,p-2", "p-3"),
      request: { project_id: project },
    };
    expect(verdicts(AggregateMultiTenancyIsolation, c)).toEqual(expected);
  });
});

describe("AggregateImagePropertiesIsolation", () => {
  it.each([
    [
      "an image property must be one of the aggregate's values",
      { os_distro: "ubuntu" },
      {},
      {
        tagged: null,
        other: rejected(/image property os_distro=ubuntu not in aggregate metadata os_distro=windows/),
        plain: null,
      },
    ],
    ["an image without the property: every host", {}, {}, { tagged: null, other: null, plain: null }],
    [
      "a namespace: keys outside it are not compared",
      { os_distro: "ubuntu" },
      { aggregate_image_properties_isolation_namespace: "isolation" },
      { tagged: null, other: null, plain: null },
    ],
  ])("%s", (_, properties, config: ScenarioConfig, expected) => {
    const c: Case = {
      hosts,
      aggregates: aggregates("os_distro", "ubuntu,debian", "windows"),
      request: { image: { properties } },
      config,
    };
    expect(verdicts(AggregateImagePropertiesIsolation, c)).toEqual(expected);
  });
});

describe("AggregateInstanceExtraSpecsFilter", () => {
  it.each([
    [
      "a scoped spec needs the aggregate key with a matching value",
      { "aggregate_instance_extra_specs:ssd": "true" },
      {
        tagged: null,
        other: rejected(/aggregate metadata ssd=false not matching true/),
        plain: rejected(/missing aggregate metadata ssd=true/),
      },
    ],
    [
      "an operator",
      { "aggregate_instance_extra_specs:ssd": "<in> fa" },
      { tagged: rejected(/ssd=true not matching <in> fa/), other: null, plain: rejected(/missing/) },
    ],
    [
      "specs of another scope are not looked at",
      { "hw:cpu_policy": "dedicated" },
      { tagged: null, other: null, plain: null },
    ],
    [
      "an unscoped spec is compared too (Nova's behaviour)",
      { ssd: "true" },
      { tagged: null, other: rejected(/not matching true/), plain: rejected(/missing aggregate metadata ssd=true/) },
    ],
  ])("%s", (_, extra_specs, expected) => {
    const c: Case = { hosts, aggregates: aggregates("ssd", "true", "false"), request: { flavor: { extra_specs } } };
    expect(verdicts(AggregateInstanceExtraSpecsFilter, c)).toEqual(expected);
  });
});

describe("IsolatedHostsFilter", () => {
  const ISOLATED = "aaaaaaaa-0000-0000-0000-000000000001";
  const OTHER = "aaaaaaaa-0000-0000-0000-000000000002";
  const two = [host("iso"), host("shared")];
  it.each([
    [
      "restricted (default): an isolated image only on isolated hosts",
      ISOLATED,
      true,
      { iso: null, shared: rejected(/isolated image needs an isolated host/) },
    ],
    [
      "restricted: a non-isolated image never on an isolated host",
      OTHER,
      true,
      { iso: rejected(/isolated host refuses a non-isolated image/), shared: null },
    ],
    ["unrestricted: a non-isolated image anywhere", OTHER, false, { iso: null, shared: null }],
    [
      "unrestricted: an isolated image still needs an isolated host",
      ISOLATED,
      false,
      { iso: null, shared: rejected(/isolated image needs an isolated host/) },
    ],
  ])("%s", (_, image, restrict, expected) => {
    const c: Case = {
      hosts: two,
      request: { image: { id: image } },
      config: {
        isolated_hosts: ["iso"],
        isolated_images: [ISOLATED],
        restrict_isolated_hosts_to_isolated_images: restrict,
      },
    };
    expect(verdicts(IsolatedHostsFilter, c)).toEqual(expected);
  });
});
