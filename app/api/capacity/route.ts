import type { NextRequest } from "next/server";
import { CapacityInputError, allFlavors, prepareFill, runFill } from "@/lib/capacity/fill";
import { validateCapacityForm } from "@/lib/capacity/schemas";
import { fieldErrors } from "@/lib/api/route-input";
import { viewerJsonBody } from "@/lib/api/viewer-input";
import { prisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/**
 * POST /api/capacity {mix: [{flavor, share}], limit, profile?}
 * Fills today's cloud (in memory; nothing is written) and streams NDJSON:
 * {"placed", "limit"} lines while it runs, then {"summary": ...}.
 * Bad input: 400 {"errors": {field: [message]}}.
 */
export async function POST(req: NextRequest) {
  // fills a copy in memory, writes nothing: any signed-in role; checked before any work
  const read = await viewerJsonBody(req);
  if (read instanceof Response) return read;
  const v = validateCapacityForm(read.body);
  if (!v.ok) return fieldErrors(v.errors);
  let prepared: Awaited<ReturnType<typeof prepareFill>>;
  try {
    prepared = await prepareFill(prisma, v.form);
  } catch (e) {
    if (e instanceof CapacityInputError) return fieldErrors({ [e.field]: [e.message] });
    throw e;
  }
  const flavors = await allFlavors(prisma);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    async start(controller) {
      try {
        for await (const line of runFill(prepared, flavors))
          controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      } catch (e) {
        controller.enqueue(encoder.encode(`${JSON.stringify({ error: (e as Error).message })}\n`));
      }
      controller.close();
    },
  });
  return new Response(stream, { headers: { "Content-Type": "application/x-ndjson", "Cache-Control": "no-store" } });
}
