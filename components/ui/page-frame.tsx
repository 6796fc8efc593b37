import type { ReactNode } from "react";
import { Notice } from "@/components/ui/notice";

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
