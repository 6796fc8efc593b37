import { notFound } from "@/lib/api/route-input";
import { viewerRunId } from "@/lib/api/viewer-input";
import { prisma } from "@/lib/db";
import { getRunText } from "@/lib/runs/queries";

/** A GET handler answering one stored document of a run, byte for byte, with the headers given for the run id. */
export function runTextGet(kind: "result" | "snapshot", headers: (id: number) => Record<string, string>) {
  return async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
    // reads: any signed-in role; checked before any work
    const id = await viewerRunId(req, ctx);
    if (id instanceof Response) return id;
    const text = await getRunText(prisma, id, kind);
    if (text === null) return notFound(`run ${id} does not exist`);
    return new Response(text, { headers: { "content-type": "application/json; charset=utf-8", ...headers(id) } });
  };
}
