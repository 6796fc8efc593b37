/**
 * Memory encryption on the Placement path, as hardware.get_mem_encryption_constraint
 * and ResourceRequest's translation ask it of each release.
 */
import { describe, expect, it } from "vitest";
import { schedule } from "../engine";
import { toResult } from "../result";

const SEV = { MEM_ENCRYPTION_CONTEXT: { total: 16 } };

function run(
  nova_release: string,
  extraSpecs: Record<string, string>,
  properties: Record<string, string>,
  hosts = [
    { name: "sev", traits: ["HW_CPU_X86_AMD_SEV"], inventories: SEV },
    // os-traits has HW_CPU_X86_AMD_SEV_ES from 2024.2 (3.1.0); before, a host cannot report it
    {
      name: "sev-es",
      traits: nova_release === "zed" ? ["HW_CPU_X86_AMD_SEV"] : ["HW_CPU_X86_AMD_SEV", "HW_CPU_X86_AMD_SEV_ES"],
      inventories: SEV,
    },
    { name: "plain" },
  ],
) {
  return toResult(
    schedule({
      config: { enabled_filters: ["ComputeFilter"], weighers: ["RAMWeigher"], placement: true, nova_release },
      hosts: hosts.map((h, i) => ({ vcpus: 8, memory_mb: 8192 + i * 1024, local_gb: 100, ...h })),
      request: {
        flavor: { name: "m1", vcpus: 1, memory_mb: 512, extra_specs: extraSpecs },
        image: { id: "img", properties },
      },
    }),
  );
}

const UEFI = { hw_firmware_type: "uefi" };

describe("memory encryption", () => {
  it.each([
    ["zed", { "hw:mem_encryption": "true" }, UEFI, null, ["sev-es", "sev"]],
    ["2025.1", {}, { ...UEFI, hw_mem_encryption: "yes" }, null, ["sev-es", "sev"]],
    // from 32.0.0 the model's trait: amd-sev by default, amd-sev-es on request
    ["2025.2", { "hw:mem_encryption": "true" }, UEFI, null, ["sev-es", "sev"]],
    ["2026.1", { "hw:mem_encryption": "true", "hw:mem_encryption_model": "amd-sev-es" }, UEFI, null, ["sev-es"]],
    ["2026.1", { "hw:mem_encryption": "true" }, { ...UEFI, hw_mem_encryption_model: "amd-sev-es" }, null, ["sev-es"]],
    // before 32.0.0 the model is no field and no trait: every SEV host
    ["2025.1", { "hw:mem_encryption": "true", "hw:mem_encryption_model": "amd-sev-es" }, UEFI, null, ["sev-es", "sev"]],
    ["2026.1", { "hw:mem_encryption": "true", "hw:mem_encryption_model": "intel-tdx" }, UEFI, "Invalid", []],
    [
      "2026.1",
      { "hw:mem_encryption": "true", "hw:mem_encryption_model": "amd-sev" },
      { ...UEFI, hw_mem_encryption_model: "amd-sev-es" },
      "FlavorImageConflict",
      [],
    ],
    ["zed", { "hw:mem_encryption": "true" }, {}, "FlavorImageConflict", []],
    ["2026.1", { "hw:mem_encryption": "true" }, { hw_firmware_type: "bios" }, "FlavorImageConflict", []],
    ["zed", { "hw:mem_encryption": "true" }, { hw_mem_encryption: "false", ...UEFI }, "FlavorImageConflict", []],
    [
      "2025.1",
      { "hw:mem_encryption": "true" },
      { ...UEFI, hw_machine_type: "pc-i440fx-6.2" },
      "InvalidMachineType",
      [],
    ],
    ["2025.1", { "hw:mem_encryption": "true" }, { ...UEFI, hw_machine_type: "pc-q35-6.2" }, null, ["sev-es", "sev"]],
    // not asked: nothing changes, whatever the firmware
    ["2026.1", { "hw:mem_encryption": "false" }, {}, null, ["plain", "sev-es", "sev"]],
  ])("%s %j %j: %s", (release, specs, props, error, hosts) => {
    const r = run(release, specs, props);
    expect(r.error).toBe(error);
    expect(r.requests[0]?.weighed.map((w) => w.host) ?? []).toEqual(hosts);
  });
});
