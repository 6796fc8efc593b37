/** Reading a cloud file for the maintenance command-line tools (drain, lose-hosts). */
import { readFileSync } from "node:fs";
import { validateCloud } from "../scenario/schema";
import { parseJson } from "../scheduler/python";
import type { Cloud } from "./drain";

/** The cloud in `file`, or a message naming what is wrong (an unreadable file, a shape error, an unknown host). */
export function readCloudFile(file: string, hosts: string[]): Cloud | string {
  let doc: unknown;
  try {
    doc = parseJson(readFileSync(file, "utf8"));
  } catch (e) {
    return `${file}: ${(e as Error).message}`;
  }
  const checked = validateCloud(doc);
  if (!checked.ok) return `${file}: ${checked.errors.join("; ")}`;
  const cloud = doc as Cloud;
  const unknown = hosts.filter((h) => !cloud.hosts.some((x) => x.name === h));
  if (unknown.length) return `no host ${unknown.map((h) => `"${h}"`).join(", ")} in ${file}`;
  return cloud;
}
