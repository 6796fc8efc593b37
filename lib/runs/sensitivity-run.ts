/**
 * Weight sensitivity of a stored run, and trying a multiplier: the run's
 * stored snapshot (cloud, config, request) scheduled again with one
 * multiplier changed, in memory (nothing is stored).
 */
import "server-only";
import type { PrismaClient } from "@/lib/db/client";
import { parseJson } from "@/lib/scheduler/python";
import { processEngine } from "@/lib/core/process-engine";
import type { Scenario } from "@/lib/scheduler/scenario";
import { getRun, getRunResult, getRunText } from "./queries";
import { MULTIPLIER_KEY, weightSensitivity, type Sensitivity } from "./sensitivity";

export class SensitivityInputError extends Error {}

export async function runSensitivity(db: PrismaClient, runId: number, index: number): Promise<Sensitivity | null> {
  const [run, result] = await Promise.all([getRun(db, runId), getRunResult(db, runId)]);
  if (!run || !result) throw new SensitivityInputError(`run ${runId} does not exist`);
  const req = result.requests[index];
  if (!req) throw new SensitivityInputError(`index: run ${runId} has no instance ${index + 1}`);
  return weightSensitivity(req, run.config);
}

export interface TryOutcome {
  key: string;
  value: number;
  error: string | null;
  message?: string;
  chosen: string | null;
  /** The top hosts of that instance, best first, with their weights. */
  top: Array<{ host: string; weight: number }>;
}

const KEYS = new Set<string>(Object.values(MULTIPLIER_KEY));

export async function tryMultiplier(
  db: PrismaClient,
  runId: number,
  index: number,
  key: string,
  value: number,
): Promise<TryOutcome> {
  if (!KEYS.has(key)) throw new SensitivityInputError(`key: ${key} is not a weigher multiplier`);
  if (!Number.isFinite(value)) throw new SensitivityInputError(`${key}: a number is required`);
  const text = await getRunText(db, runId, "snapshot");
  if (text === null) throw new SensitivityInputError(`run ${runId} does not exist`);
  const scenario = parseJson(text) as Scenario;
  scenario.config = { ...(scenario.config ?? {}), [key]: value };
  const engine = processEngine();
  const result = engine.toResult(engine.schedule(scenario));
  const req = result.requests[index];
  return {
    key,
    value,
    error: result.error,
    ...(result.message ? { message: result.message } : {}),
    chosen: req?.chosen ?? null,
    top: (req?.weighed ?? []).slice(0, 3).map((w) => ({ host: w.host, weight: w.weight })),
  };
}
