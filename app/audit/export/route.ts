import { zodFieldErrors } from "@/lib/core/errors";
import { PAGE_PARAMS } from "@/lib/api/page-params";
import { fieldErrors, routeParams } from "@/lib/api/route-input";
import { requireRole } from "@/lib/auth/session";
import { AuditFilterSchema, auditCsv } from "@/lib/audit/queries";
import { prisma } from "@/lib/db";

export const dynamic = "force-dynamic";

/** GET /audit/export?user=&entity=&key=&from=&to= : the filtered audit trail as CSV. */
export async function GET(req: Request) {
  const actor = await requireRole(req, "viewer");
  if (actor instanceof Response) return actor;
  // the audit page's filter, as its form sends it
  const query = routeParams(PAGE_PARAMS["/audit"], new URL(req.url).searchParams);
  if (query instanceof Response) return query;
  const { page: _page, ...filter } = query;
  const parsed = AuditFilterSchema.safeParse(filter);
  if (!parsed.success) return fieldErrors(zodFieldErrors(parsed.error.issues));
  const rows = auditCsv(prisma, parsed.data);
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await rows.next();
      if (next.done) controller.close();
      else controller.enqueue(new TextEncoder().encode(next.value));
    },
  });
  return new Response(body, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="schedscope-audit.csv"`,
      "cache-control": "no-store",
    },
  });
}
