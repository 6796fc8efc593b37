/**
 * Writes the bundle scripts/collect-openstack.sh would produce for the demo
 * cloud at N hosts (a directory and its .tar.gz), to time
 * `npm run -s scenario -- import-openstack` at scale:
 *
 *   node --import tsx bench/openstack-bundle.ts 10000 /tmp/bundle-10k
 *   time npm run -s scenario -- import-openstack /tmp/bundle-10k.tar.gz
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { buildDemoCloud, DEFAULT_PROFILE_CONFIG } from "../lib/demo/cloud";
import { scenarioToBundle } from "../lib/testing/openstack-bundle";

const hosts = Number(process.argv[2] ?? 10000);
const out = path.resolve(process.argv[3] ?? `/tmp/openstack-bundle-${hosts}`);
const cloud = { ...buildDemoCloud({ hosts }), config: DEFAULT_PROFILE_CONFIG } as Record<string, unknown>;
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });
for (const [name, text] of scenarioToBundle(cloud)) fs.writeFileSync(path.join(out, name), text);
execFileSync("tar", ["-czf", `${out}.tar.gz`, "-C", path.dirname(out), path.basename(out)]);
const size = (p: string) => (fs.statSync(p).size / 1024 / 1024).toFixed(1);
console.log(`${out} (${hosts} hosts) and ${out}.tar.gz (${size(`${out}.tar.gz`)} MB)`);
