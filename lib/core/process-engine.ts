/**
 * The scheduler engine a server process runs its requests on: one per
 * process, the one instrumentation.ts warms up at start.
 *
 * Next.js bundles a module once per server entry (instrumentation.ts, the
 * pages with their actions, the route handlers), so a production server
 * holds several copies of lib/scheduler, and V8 compiles and optimises each
 * on its own: a warm-up in instrumentation.ts warmed only its own copy, and
 * the first Schedule click ran a cold one. The first copy asked for is kept
 * on globalThis (the process-wide place Next.js points to for this) and
 * every entry runs that one. Outside production each entry keeps its own,
 * so that `next dev` runs the code as edited.
 */
import { processSingleton } from "@/lib/process-singleton";
import { schedule, toResult } from "@/lib/scheduler";
import { warmUpEngine } from "@/lib/scheduler/warm-up";

export interface ProcessEngine {
  schedule: typeof schedule;
  toResult: typeof toResult;
  warmUp: typeof warmUpEngine;
}

const local: ProcessEngine = { schedule, toResult, warmUp: warmUpEngine };
export const ENGINE_SINGLETON = "engine";

export function processEngine(): ProcessEngine {
  if (process.env.NODE_ENV !== "production") return local;
  return processSingleton(ENGINE_SINGLETON, () => local);
}
