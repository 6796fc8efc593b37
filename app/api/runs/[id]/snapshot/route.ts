import { runTextGet } from "../run-text";

export const dynamic = "force-dynamic";

/**
 * GET /api/runs/ID/snapshot: the whole scenario the engine saw (cloud, config
 * and request), as stored; feed it to `npm run -s schedule` to reproduce the run.
 */
export const GET = runTextGet("snapshot", (id) => ({
  "content-disposition": `inline; filename="run-${id}-scenario.json"`,
}));
