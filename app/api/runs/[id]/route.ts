import { runTextGet } from "./run-text";

export const dynamic = "force-dynamic";

/** GET /api/runs/ID: the run's stored result document, byte for byte as stored. */
export const GET = runTextGet("result", () => ({ "cache-control": "private, max-age=3600, immutable" }));
