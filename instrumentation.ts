/**
 * Next.js runs register() once when a server process starts, before it
 * handles a request. Here the process warms its scheduler engine up
 * (lib/core/process-engine.ts, lib/scheduler/warm-up.ts), then loads the cloud and
 * schedules its flavors once (lib/runs/prime.ts), so the first Schedule
 * click pays neither for compiling the engine nor for reading the cloud.
 */
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { processEngine } = await import("./lib/core/process-engine");
  processEngine().warmUp();
  try {
    const { prisma } = await import("./lib/db");
    const { primeServer } = await import("./lib/runs/prime");
    // scheduled sync (off until an admin sets an interval on /connections); it reads its setting each minute
    const { startSyncScheduler } = await import("./lib/sync/schedule");
    startSyncScheduler(prisma);
    await primeServer(prisma);
  } catch (e) {
    // A database not there yet is not a reason not to serve: the first click loads the cloud then.
    console.error("could not load the cloud at start:", (e as Error).message);
  }
}
