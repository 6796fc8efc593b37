/** Helpers the read modules share: numbers from raw SQL, LIKE patterns, pages, key/value rows. */
import "server-only";

export const num = (v: unknown) => (typeof v === "bigint" ? Number(v) : Number(v ?? 0));

/** `LIKE` pattern for "contains q" (escaping % _ \). */
export function likeContains(q: string): string {
  return `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
  pages: number;
}

/** The 1-based page `page` clamped to the pages there are, and the rows to skip before it. */
export function pageOf(total: number, pageSize: number, page?: number): { page: number; pages: number; skip: number } {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const p = Math.min(Math.max(1, Math.floor(page ?? 1)), pages);
  return { page: p, pages, skip: (p - 1) * pageSize };
}

export type KeyValue = { key: string; value: string };

export const keyValues = (rows: KeyValue[]): KeyValue[] => rows.map((m) => ({ key: m.key, value: m.value }));
