/** `npm run -s scenario -- import-openstack | nova-conf | import-nova-conf` on a fresh database file. */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const FIXTURES = path.join(__dirname, "fixtures");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "schedscope-os-cli-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const db = path.join(tmp, "cloud.db");

const cli = (...args: string[]) =>
  spawnSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), "lib/scenario/cli.ts", ...args], {
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: `file:${db}` },
  });

describe("the scenario CLI with OpenStack bundles", { timeout: 120_000 }, () => {
  it("--dry-run prints the preview and writes nothing; without it the cloud is replaced", () => {
    const dry = cli("import-openstack", path.join(FIXTURES, "modern"), "--dry-run");
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/^hosts\s+3\s+0\s+0\s+0$/m);
    expect(dry.stdout).toContain("neutral: 1 hypervisor(s) have no row in compute-nodes.json (cmp-002.cloud.example)");
    expect(dry.stdout).toMatch(/dry run: nothing was changed\n$/);
    expect(dry.stderr).toMatch(/\[\d+\.\d s\] validating 3 hosts/);

    const real = cli("import-openstack", path.join(FIXTURES, "modern"));
    expect(real.status, real.stderr).toBe(0);
    expect(real.stdout).toMatch(/replaced the cloud in .* 3 hosts, 3 aggregates, 1 server groups, 4 instances/);
    // a second dry run sees no change: the first one wrote nothing, the real one everything
    expect(cli("import-openstack", path.join(FIXTURES, "modern"), "--dry-run").stdout).toMatch(
      /^hosts\s+0\s+0\s+0\s+3$/m,
    );
  });

  it("a broken bundle: every error, exit 1, nothing changed", () => {
    const r = cli("import-openstack", path.join(FIXTURES, "broken"));
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/^error: flavor-list.json: is not valid JSON/m);
    expect(r.stderr).toMatch(
      /^error: aggregate-show.json\[2\].hosts\[1\]: aggregate "gpu-a100" names unknown host "cmp-999"/m,
    );
    expect(r.stderr).toMatch(/nothing was changed\n$/);
  });

  it("nova-conf exports a profile; import-nova-conf reads it back into another", () => {
    const src = cli("import-nova-conf", path.join(FIXTURES, "modern", "nova.conf"), "--profile", "source");
    expect(src.status, src.stderr).toBe(0);
    // every option of the file, kept into which key, ignored (why) or unknown
    expect(src.stdout).toMatch(/^profile "source" from .*: \d+ kept, \d+ ignored, 1 unknown$/m);
    expect(src.stdout).toMatch(
      /^ {2}unknown \[filter_scheduler\] use_baremetal_filters \(line \d+\): not a Nova Zed option of this section$/m,
    );
    expect(src.stdout).toMatch(
      /^ {2}kept {4}\[filter_scheduler\] ram_weight_multiplier \(line \d+\): ram_weight_multiplier$/m,
    );
    expect(src.stdout).toMatch(
      /^ {2}ignored {1}\[api_database\] \(\d+ options?\) \(line \d+\): a section the scheduler does not read$/m,
    );
    const out = path.join(tmp, "nova.conf");
    const exp = cli("nova-conf", "--profile", "source", "--out", out);
    expect(exp.status, exp.stderr).toBe(0);
    expect(fs.readFileSync(out, "utf8")).toContain("ram_weight_multiplier = -1.0");
    const imp = cli("import-nova-conf", out, "--profile", "copy");
    expect(imp.status, imp.stderr).toBe(0);
    // weight_classes = all_weighers is the default and Placement on is what an import assumes: neither exported
    expect(imp.stdout).toMatch(/^profile "copy" from .*: 8 kept, 0 ignored, 0 unknown$/m);
    expect(cli("nova-conf", "--profile", "copy").stdout.split("\n").slice(1)).toEqual(
      fs.readFileSync(out, "utf8").split("\n").slice(1),
    );
  });
});
