// ImagePropertiesWeigher (Nova 2025.1): the count of shared image properties
// over a host's instances, and what a scenario lets it see.
import { describe, expect, it } from "vitest";
import { host, weights } from "@/lib/scheduler/testing";
import { resolveConfig } from "../config";
import { buildImageProps } from "../image-meta";
import { ImagePropertiesWeigher, imagePropertiesWeight } from "./image-properties";

const props = (p: Record<string, unknown>) => buildImageProps(p);
const windowsQ35 = props({ os_distro: "windows", hw_machine_type: "q35" });

describe("imagePropertiesWeight: each instance adds the ratio of every request property its image shares", () => {
  it.each<[string, Record<string, unknown>[], string[], number]>([
    ["no instances", [], [], 0],
    [
      "one instance sharing both properties, no setting: 1.0 each",
      [{ os_distro: "windows", hw_machine_type: "q35" }],
      [],
      2,
    ],
    ["a different value does not count", [{ os_distro: "ubuntu", hw_machine_type: "q35" }], [], 1],
    ["a property the instance's image lacks does not count", [{}], [], 0],
    [
      "os_distro=1, hw_machine_type=-1 over three instances",
      [{ os_distro: "windows" }, { os_distro: "windows", hw_machine_type: "q35" }, { hw_machine_type: "q35" }],
      ["os_distro=1", "hw_machine_type=-1"],
      0,
    ],
    [
      "a ratio of 0 ignores the property (and one the setting does not name weighs 0.0)",
      [{ os_distro: "windows", hw_machine_type: "q35" }],
      ["os_distro=0"],
      0,
    ],
    [
      "with a setting, a property it does not name weighs 0.0 (setting.get(prop, 0.0))",
      [{ os_distro: "windows", hw_machine_type: "q35" }],
      ["os_distro=2.5"],
      2.5,
    ],
    ["a property the request image lacks does not count", [{ hw_pmu: true }], [], 0],
  ])("%s", (_, instances, setting, expected) => {
    const ratios = new Map(
      setting.map((s) => {
        const [k, v] = s.split("=");
        return [k, Number(v)] as [string, number];
      }),
    );
    expect(imagePropertiesWeight(windowsQ35, instances.map(props), ratios)).toBe(expected);
  });
});

describe("ImagePropertiesWeigher: in a scenario", () => {
  const WIN = "11111111-1111-1111-1111-111111111111";
  const WIN2 = "22222222-2222-2222-2222-222222222222";
  const UBU = "33333333-3333-3333-3333-333333333333";
  const cloud = [
    host("a", {
      instances: [WIN, WIN2],
      instance_image_properties: { [WIN]: { os_distro: "windows" }, [WIN2]: { os_distro: "windows" } },
    }),
    host("b", { instances: [UBU], instance_image_properties: { [UBU]: { os_distro: "ubuntu" } } }),
    host("c", { instances: [UBU] }),
  ];
  const request = { flavor: { name: "m1", vcpus: 1, memory_mb: 512 }, image: { properties: { os_distro: "windows" } } };
  const raw = (config: Record<string, unknown>, aggregates?: Parameters<typeof weights>[1]["aggregates"]) =>
    Object.fromEntries(
      Object.entries(weights(ImagePropertiesWeigher, { hosts: cloud, config, request, aggregates })).map(([h, w]) => [
        h,
        [w.raw, w.multiplier],
      ]),
    );

  it.each<[string, Record<string, unknown>, Record<string, [number, number]>]>([
    [
      "multiplier 2: host a's two windows instances count 2",
      { image_props_weight_multiplier: 2.0 },
      {
        a: [2, 2],
        b: [0, 2],
        c: [0, 2],
      },
    ],
    ["Nova's default multiplier 0 skips the count", {}, { a: [0, 0], b: [0, 0], c: [0, 0] }],
  ])("%s", (_, config, expected) => {
    expect(raw(config)).toEqual(expected);
  });

  it("with the configured multiplier 0, an aggregate's image_props_weight_multiplier still weighs 0 (Nova checks CONF)", () => {
    expect(raw({}, [{ name: "packed", hosts: ["a"], metadata: { image_props_weight_multiplier: "3" } }]).a).toEqual([
      0, 3,
    ]);
  });

  it.each([
    [{ [UBU]: { os_distro: "ubuntu" } }, `hosts[0].instance_image_properties.${UBU}: not one of hosts[0].instances`],
    [["x"], "hosts[0].instance_image_properties: must be an object of instance UUID -> image properties"],
    [{ [WIN]: { hw_disk_bus: "floppy-ish" } }, `hosts[0].instance_image_properties.${WIN}:`],
  ])("refuses %j, naming the field", (given, message) => {
    expect(() =>
      weights(ImagePropertiesWeigher, {
        hosts: [host("a", { instances: [WIN], instance_image_properties: given as never })],
        config: { image_props_weight_multiplier: 1 },
        request,
      }),
    ).toThrow(message);
  });

  it.each<[Record<string, unknown>, number, string[]]>([
    [{}, 0.0, []],
    [
      { image_props_weight_multiplier: -1.5, image_props_weight_setting: "os_distro=1, hw_machine_type=-1" },
      -1.5,
      ["os_distro=1", "hw_machine_type=-1"],
    ],
    [{ image_props_weight_setting: ["os_distro=1"] }, 0.0, ["os_distro=1"]],
  ])("config %j: multiplier %d, setting %j (Nova's defaults 0.0 and [])", (config, multiplier, setting) => {
    const c = resolveConfig(config);
    expect(c.imagePropsWeightMultiplier).toBe(multiplier);
    expect(c.imagePropsWeightSetting).toEqual(setting);
  });

  it.each([
    [{ image_props_weight_multiplier: "heavy" }, 'config.image_props_weight_multiplier: must be a number, got "heavy"'],
    [
      { image_props_weight_setting: 3 },
      'config.image_props_weight_setting: must be "name=ratio, ..." or a list of them',
    ],
  ])("refuses %j", (config, message) => {
    expect(() => resolveConfig(config as never)).toThrow(message);
  });
});
