/**
 * Next.js runs register() once when a server process starts: warm the
 * scheduler engine up there, so the first Schedule click does not pay for
 * compiling it (lib/scheduler/warm-up.ts).
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { warmUpEngine } = await import("./lib/scheduler/warm-up");
  warmUpEngine();
}
