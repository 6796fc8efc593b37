import type { SchedulingCall } from "./types";

/** Calls in the order they started (file, then line, breaks ties of equal times). */
export function byStart(a: SchedulingCall, b: SchedulingCall): number {
  const ta = Number.isFinite(a.started) ? a.started : 0;
  const tb = Number.isFinite(b.started) ? b.started : 0;
  return ta - tb || a.source.file.localeCompare(b.source.file) || a.source.line - b.source.line;
}
