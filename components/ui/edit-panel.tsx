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

/**
 * A list row's Edit link: the list again (with `params`, e.g. its search)
 * and `?edit=uuid`, scrolled to the EditPanel it opens.
 */
export function EditLink({
  list,
  uuid,
  name,
  params = {},
}: {
  list: string;
  uuid: string;
  /** what the row is called, for the link's accessible name */
  name: string;
  params?: Record<string, string>;
}) {
  return (
    <Link
      href={`${list}?${new URLSearchParams({ ...params, edit: uuid })}#edit`}
      className="btn small"
      aria-label={`Edit ${name}`}
    >
      Edit
    </Link>
  );
}

/** The list page's panel with the form that creates a new record. */
export function NewPanel({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section className="panel" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
