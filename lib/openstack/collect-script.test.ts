/**
 * scripts/collect-openstack.sh against a stand-in `openstack` client that
 * answers from the modern fixture: the bundle it writes (and its .tar.gz)
 * imports as the fixture does, and nova.conf keeps only the scheduler's
 * sections (no credentials).
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importNovaConf } from "./nova-conf";
import { prepareImport } from "./import";
import { readBundleDir, readBundlePath } from "./read-bundle";

const ROOT = path.resolve(__dirname, "..", "..");
const FIXTURES = path.join(__dirname, "fixtures");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "collect-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function collect(...args: string[]) {
  return spawnSync("bash", [path.join(ROOT, "scripts", "collect-openstack.sh"), ...args], {
    encoding: "utf8",
    env: {
      ...process.env,
      PATH: `${path.join(FIXTURES, "stub-bin")}:${process.env.PATH}`,
      STUB_BUNDLE: path.join(FIXTURES, "modern"),
    },
  });
}

describe("scripts/collect-openstack.sh", () => {
  it("writes the bundle and its .tar.gz, which import as the fixture does", { timeout: 180_000 }, async () => {
    const out = path.join(tmp, "bundle");
    const r = collect("-o", out, "--nova-conf", path.join(FIXTURES, "modern", "nova.conf"));
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(`${out}.tar.gz`);
    expect(r.stderr).toMatch(/compute-nodes.json: SKIPPED \(give --mysql-defaults FILE and --cell NAME=DATABASE\)/);

    const fixture = readBundleDir(path.join(FIXTURES, "modern"));
    fixture.delete("compute-nodes.json");
    const expected = prepareImport(fixture);
    const fromDir = prepareImport(readBundleDir(out));
    const fromTar = prepareImport(await readBundlePath(`${out}.tar.gz`));
    expect(fromDir.doc).toEqual(expected.doc);
    expect(fromTar.doc).toEqual(expected.doc);

    const conf = fs.readFileSync(path.join(out, "nova.conf"), "utf8");
    expect(conf).toContain("[filter_scheduler]");
    expect(conf).toContain("alias = ");
    expect(conf).not.toMatch(/transport_url|connection|secret|api_database/);
  });

  it("keeps the [DEFAULT] scheduler options of an older nova.conf (and no credentials)", { timeout: 180_000 }, () => {
    const out = path.join(tmp, "legacy");
    const r = collect("-o", out, "--nova-conf", path.join(FIXTURES, "nova-conf", "default-section-names.conf"));
    expect(r.status, r.stderr).toBe(0);
    const conf = fs.readFileSync(path.join(out, "nova.conf"), "utf8");
    expect(conf).toContain(
      "scheduler_default_filters = RetryFilter,AvailabilityZoneFilter,ComputeFilter,\n  ComputeCapabilitiesFilter,",
    );
    for (const o of [
      "scheduler_weight_classes",
      "ram_weight_multiplier",
      "scheduler_max_attempts",
      "max_instances_per_host",
    ])
      expect(conf).toContain(`${o} = `);
    expect(conf).toContain("default_availability_zone = az1");
    expect(conf).toContain("host_subset_size = 2");
    expect(conf).not.toMatch(/transport_url|connection|secret|debug/);
    // and the import names each of them
    const report = importNovaConf(conf).report;
    expect(report.find((x) => x.option === "[DEFAULT] scheduler_default_filters")?.status).toBe("ignored");
    expect(report.find((x) => x.option === "[filter_scheduler] host_subset_size")?.status).toBe("kept");
  });

  it("says clearly what it needs", () => {
    const r = collect("--bogus");
    expect(r.status).toBe(1);
    expect(r.stderr).toBe("collect-openstack: unknown argument --bogus (see --help)\n");
  });
});
