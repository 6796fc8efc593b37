import Link from "next/link";
import type { ReactNode } from "react";

/** The panel a list page opens for `?edit=…` (its Edit links jump to #edit); Close goes back to the list. */
export function EditPanel({ title, closeHref, children }: { title: string; closeHref: string; children: ReactNode }) {
  return (
    <section className="panel" id="edit" aria-labelledby="edit-h">
      <div className="page-head">
        <h2 id="edit-h">{title}</h2>
        <Link href={closeHref} className="btn small">
          Close
        </Link>
      </div>
      {children}
    </section>
  );
}
