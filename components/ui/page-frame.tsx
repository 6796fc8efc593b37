import type { ReactNode } from "react";
import { Notice } from "@/components/ui/notice";

/** What Next.js hands a page as `searchParams`. */
export type SearchParams = Promise<Record<string, string | string[] | undefined>>;

/** Reads single query parameters: a repeated or absent one reads as null. */
export async function queryParams(searchParams: SearchParams): Promise<(key: string) => string | null> {
  const sp = await searchParams;
  return (key) => {
    const v = sp[key];
    return typeof v === "string" ? v : null;
  };
}

/** A catalogue page: its heading, what the scheduler reads from it, and the outcome of the last delete. */
export function PageFrame({
  title,
  lead,
  notice,
  children,
}: {
  title: string;
  lead: ReactNode;
  notice?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section>
      <h1>{title}</h1>
      <p className="lead">{lead}</p>
      {notice ? <Notice tone="ok">{notice}</Notice> : null}
      {children}
    </section>
  );
}
