/**
 * Reading the audit trail: filters (user, entity, key, time range), newest
 * first, and the CSV export of the same selection.
 */
import { z } from "zod";
import type { PrismaClient } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

const optionalText = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined);

/** datetime-local ("2026-11-23T10:42") or ISO; read as UTC when no zone is given. */
const optionalTime = (field: string) =>
  optionalText.pipe(
    z
      .string()
      .optional()
      .transform((v, ctx) => {
        if (!v) return undefined;
        const d = new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(v) ? v : `${v}Z`);
        if (Number.isNaN(d.getTime())) {
          ctx.addIssue({ code: "custom", message: `${field}: must be a date and time like 2026-11-23T10:42` });
          return z.NEVER;
        }
        return d;
      }),
  );

export const AuditFilterSchema = z.object({
  user: optionalText,
  entity: optionalText,
  key: optionalText,
  from: optionalTime("from"),
  to: optionalTime("to"),
});
export type AuditFilter = Partial<z.output<typeof AuditFilterSchema>>;

function whereOf(f: AuditFilter): Prisma.AuditEntryWhereInput {
  return {
    ...(f.user ? { userName: f.user.toLowerCase() } : {}),
    ...(f.entity ? { entity: f.entity } : {}),
    ...(f.key ? { entityKey: f.key } : {}),
    ...(f.from || f.to ? { at: { ...(f.from ? { gte: f.from } : {}), ...(f.to ? { lte: f.to } : {}) } } : {}),
  };
}

export async function listAudit(db: PrismaClient, f: AuditFilter, opts: { limit: number; page?: number }) {
  const where = whereOf(f);
  const page = Math.max(1, opts.page ?? 1);
  const [total, entries] = await Promise.all([
    db.auditEntry.count({ where }),
    db.auditEntry.findMany({
      where,
      orderBy: [{ at: "desc" }, { id: "desc" }],
      take: opts.limit,
      skip: (page - 1) * opts.limit,
    }),
  ]);
  return { total, entries, page, pages: Math.max(1, Math.ceil(total / opts.limit)) };
}

/** The names that appear in the trail (for the user filter). */
export async function auditUsers(db: PrismaClient): Promise<string[]> {
  const rows = await db.auditEntry.findMany({ distinct: ["userName"], select: { userName: true } });
  return rows.map((r) => r.userName).sort();
}

/** One field of a CSV line (RFC 4180 quoting; a leading =, +, - or @ is defused for spreadsheets). */
export function csvField(v: string | number | null | undefined): string {
  let s = v === null || v === undefined ? "" : String(v);
  if (/^[=+\-@]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) || s !== s.trim() ? `"${s.replace(/"/g, '""')}"` : s;
}

export const CSV_HEADER = ["at", "user", "role", "action", "entity", "key", "before", "after"];

/** The whole selection as CSV, oldest first, in pages of 1,000 rows. */
export async function* auditCsv(db: PrismaClient, f: AuditFilter): AsyncGenerator<string> {
  yield `${CSV_HEADER.join(",")}\r\n`;
  const where = whereOf(f);
  let cursor: number | undefined;
  for (;;) {
    const rows = await db.auditEntry.findMany({
      where,
      orderBy: { id: "asc" },
      take: 1000,
      ...(cursor ? { skip: 1, cursor: { id: cursor } } : {}),
    });
    if (!rows.length) return;
    yield rows
      .map(
        (r) =>
          `${[r.at.toISOString(), r.userName, r.role, r.action, r.entity, r.entityKey, r.before, r.after].map(csvField).join(",")}\r\n`,
      )
      .join("");
    cursor = rows[rows.length - 1].id;
  }
}
