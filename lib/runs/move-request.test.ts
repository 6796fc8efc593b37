/** What the libvirt driver answers a resize the scheduler placed (virt/libvirt/driver.py migrate_disk_and_power_off). */
import { describe, expect, it } from "vitest";
import type { ScenarioRequest } from "@/lib/scheduler/scenario";
import { resizeRefusedByDriver } from "./move-request";

const flavor = (name: string, root_gb: number, ephemeral_gb = 0) => ({
  name,
  vcpus: 1,
  memory_mb: 512,
  root_gb,
  ephemeral_gb,
});
const resize = (from: ReturnType<typeof flavor>, to: ReturnType<typeof flavor>, extra: Partial<ScenarioRequest> = {}) =>
  ({
    operation: "resize",
    instance: { uuid: "u", host: "src", flavor: from },
    flavor: to,
    ...extra,
  }) as ScenarioRequest;

describe("resizeRefusedByDriver", () => {
  it.each([
    ["a bigger root disk", resize(flavor("a", 20), flavor("b", 40)), null],
    ["the same root disk", resize(flavor("a", 20), flavor("b", 20)), null],
    ["a smaller root disk", resize(flavor("m1.large", 80), flavor("m1.tiny", 1)), /root disk would shrink from 80 GB/],
    ["a smaller root disk, booted from a volume", resize(flavor("a", 80), flavor("b", 1), { is_bfv: true }), null],
    ["a smaller ephemeral disk", resize(flavor("a", 20, 40), flavor("b", 20, 10)), /ephemeral disk would shrink/],
    [
      "a smaller ephemeral disk, booted from a volume",
      resize(flavor("a", 20, 40), flavor("b", 20, 10), { is_bfv: true }),
      /ephemeral disk would shrink/,
    ],
  ])("%s", (_name, request, expected) => {
    const out = resizeRefusedByDriver(request);
    if (expected === null) expect(out).toBeNull();
    else {
      expect(out).toMatch(/ResizeError "Unable to resize disk down."/);
      expect(out).toMatch(expected);
    }
  });

  it("says nothing of a migration", () => {
    expect(resizeRefusedByDriver({ ...resize(flavor("a", 80), flavor("b", 1)), operation: "migrate" })).toBeNull();
  });
});
