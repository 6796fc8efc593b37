// Expected strings are what Nova Zed's ImageMetaProps.from_dict gives for
// the same properties (str() of hw_numa_cpus, or the exception's text).
import { describe, expect, it } from "vitest";
import { buildImageProps, imagePropGet } from "./image-meta";
import { schedule } from "./engine";
import { NovaError, pyStr } from "./python";

describe("hw_numa_cpus.N is parsed as hardware.parse_cpu_spec does", () => {
  it.each([
    ["0-3,^1", "[CoercedSet({0, 2, 3})]"],
    // a set prints in CPython's table order, not sorted
    ["128-131,3", "[CoercedSet({128, 129, 130, 131, 3})]"],
    ["20-23,0-1", "[CoercedSet({0, 1, 20, 21, 22, 23})]"],
  ])("%s gives %s", (spec, shown) => {
    const props = buildImageProps({ "hw_numa_cpus.0": spec, "hw_numa_mem.0": "512" });
    expect(pyStr(imagePropGet(props, "hw_numa_cpus")!)).toBe(shown);
  });

  it.each([
    ["1-x,2", "Invalid range expression '1-x'"],
    ["0,^y", "Invalid exclusion expression '^y'"],
    ["4-2", "Invalid range expression '4-2'"],
  ])("%s is refused, naming the rule: %s", (spec, message) => {
    const build = () => buildImageProps({ "hw_numa_cpus.0": spec, "hw_numa_mem.0": "512" });
    expect(build).toThrow(NovaError);
    expect(build).toThrow(message);
  });
});

describe("each release's ImageMetaProps (its own image_meta.py)", () => {
  const boot = (nova_release: string, properties: Record<string, string>) =>
    schedule({
      config: { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"], nova_release },
      hosts: [{ name: "h1", vcpus: 8, memory_mb: 8192, local_gb: 100 }],
      request: { flavor: { name: "m1", vcpus: 1, memory_mb: 512 }, image: { properties } },
    }).error?.name ?? null;
  it.each([
    ["zed", { hw_vif_model: "igb" }, "ValueError"],
    ["2024.2", { hw_vif_model: "igb" }, "ValueError"],
    ["2025.1", { hw_vif_model: "igb" }, null],
    ["2026.1", { hw_vif_model: "igb" }, null],
    // not a field before 32.0.0: ignored, as from_dict ignores any unknown key
    ["zed", { hw_sound_model: "hda" }, null],
    ["2025.1", { hw_sound_model: "hda" }, null],
    ["2025.2", { hw_sound_model: "hda" }, "ValueError"],
    ["2026.1", { hw_sound_model: "hda" }, "ValueError"],
    ["2026.1", { hw_sound_model: "ich9", hw_usb_model: "qemu-xhci" }, null],
    ["2026.1", { hw_usb_model: "ehci" }, "ValueError"],
    ["2026.1", { hw_mem_encryption_model: "amd-sev-es" }, null],
    ["2026.1", { hw_mem_encryption_model: "intel-tdx" }, "ValueError"],
    ["2024.1", { hw_maxphysaddr_bits: "x" }, "ValueError"],
    ["2023.2", { hw_maxphysaddr_bits: "x" }, null],
  ])("%s: %j is %s", (release, properties, error) => {
    expect(boot(release, properties)).toBe(error);
  });
  it("types the fields a release added (2026.1: hw_sound_model, hw_redirected_usb_ports)", () => {
    const props = buildImageProps({ hw_sound_model: "ich9", hw_redirected_usb_ports: "3" }, { release: "2026.1" });
    expect([props.get("hw_sound_model"), props.get("hw_redirected_usb_ports")]).toEqual(["ich9", 3]);
    expect(buildImageProps({ hw_sound_model: "ich9" }).has("hw_sound_model")).toBe(false);
  });
});
