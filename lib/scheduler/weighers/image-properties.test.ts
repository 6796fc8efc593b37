// ImagePropertiesWeigher (Nova 2025.1): the count of shared image properties
// over a host's instances, and what a scenario lets it see.
import { describe, expect, it } from "vitest";
import { host, weights } from "@/lib/testing/scheduler";
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
    ["a ratio of 0 ignores the property", [{ os_distro: "windows", hw_machine_type: "q35" }], ["os_distro=0"], 1],
    [
      "a property the setting does not name weighs 1.0",
      [{ os_distro: "windows", hw_machine_type: "q35" }],
      ["os_distro=2.5"],
      3.5,
    ],
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
  it("sees no instance image properties (the scenario lists instances by UUID only): every host weighs 0", () => {
    const got = weights(ImagePropertiesWeigher, {
      hosts: [host("a", { instances: ["11111111-1111-1111-1111-111111111111"] }), host("b")],
      config: { image_props_weight_multiplier: 2.0 },
      request: { flavor: { name: "m1", vcpus: 1, memory_mb: 512 }, image: { properties: { os_distro: "windows" } } },
    });
    expect(Object.fromEntries(Object.entries(got).map(([h, w]) => [h, [w.raw, w.multiplier]]))).toEqual({
      a: [0, 2],
      b: [0, 2],
    });
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
