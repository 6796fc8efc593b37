/**
 * Reading a scenario file for the command-line tools: the file must be
 * readable JSON shaped like a scenario (hosts, request and flavor of the
 * right types); anything else is an InvalidScenario naming the field.
 * Values Nova itself judges are left to the engine.
 */
import { readFileSync } from "node:fs";
import { MoveScenarioSchema, ScenarioSchema, formatZodError } from "./schema";
import { parseJson } from "../scheduler/python";
import type { Scenario } from "../scheduler/scenario";

export class InvalidScenario extends Error {}

// Shapes without which there is no scheduling question at all.
function isFatal(path: PropertyKey[], isMove = false): boolean {
  if (path.length <= 1) return true;
  const [top, second, third] = path;
  if ((top === "hosts" || top === "aggregates" || top === "server_groups") && path.length === 2) return true;
  if (top === "hosts" && third === "name" && path.length === 3) return true;
  // a move's instance and operation (the engine names what else is wrong with a move)
  if (isMove) return top === "request" && (second === "operation" || (second === "instance" && path.length === 2));
  return top === "request" && second === "flavor" && path.length <= 3 && (path.length === 2 || third === "name");
}

export function loadScenarioFile(file: string): Scenario {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new InvalidScenario(`cannot read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let doc: unknown;
  try {
    doc = parseJson(text);
  } catch (e) {
    throw new InvalidScenario(`not valid JSON (${(e as Error).message})`);
  }
  // A move (request.operation) keeps the instance's flavor: its request is read by its own schema.
  const request = (doc as { request?: unknown } | null)?.request;
  const isMove = typeof request === "object" && request !== null && "operation" in request;
  const parsed = (isMove ? MoveScenarioSchema : ScenarioSchema).safeParse(doc);
  if (!parsed.success) {
    const fatal = parsed.error.issues.filter(
      (i) => (i.code === "invalid_type" || i.code === "invalid_union") && isFatal(i.path, isMove),
    );
    if (fatal.length) throw new InvalidScenario(`invalid scenario: ${formatZodError({ issues: fatal }).join("; ")}`);
  }
  return doc as Scenario;
}
