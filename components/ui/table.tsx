import Link from "next/link";
import type { ReactNode } from "react";

/** A column header that only screen readers read (a column of row buttons). */
export function HiddenColumnHeader({ children }: { children: ReactNode }) {
  return (
    <th scope="col">
      <span className="visually-hidden">{children}</span>
    </th>
  );
}

/** One column of a DataTable: a plain label, or a label with its alignment and visibility. */
export type Column =
  | ReactNode
  | {
      label: ReactNode;
      num?: boolean;
      hidden?: boolean;
      className?: string;
      title?: string;
      sort?: "ascending" | "descending";
    };

function isSpec(c: Column): c is Exclude<Column, ReactNode> & { label: ReactNode } {
  return typeof c === "object" && c !== null && "label" in c;
}

function ColumnHeader({ column }: { column: Column }) {
  if (!isSpec(column)) return <th scope="col">{column}</th>;
  if (column.hidden) return <HiddenColumnHeader>{column.label}</HiddenColumnHeader>;
  const className = [column.num ? "num" : "", column.className ?? ""].filter(Boolean).join(" ") || undefined;
  return (
    <th scope="col" className={className} title={column.title} aria-sort={column.sort}>
      {column.label}
    </th>
  );
}

/**
 * The house table: one header row of column headers, a caption or an accessible name, and the rows
 * the caller gives. Every list in the app renders through it so headers, captions and the
 * `data-table` styling stay the same everywhere.
 */
export function DataTable({
  columns,
  children,
  caption,
  label,
  labelledBy,
  className,
  captionClassName,
  unstyled,
  busy,
  foot,
}: {
  columns: readonly Column[];
  children: ReactNode;
  caption?: ReactNode;
  label?: string;
  labelledBy?: string;
  className?: string;
  captionClassName?: string;
  /** Leaves out the `data-table` look, for tables inside a panel with its own. */
  unstyled?: boolean;
  busy?: boolean;
  foot?: ReactNode;
}) {
  return (
    <table
      className={unstyled ? className : className ? `data-table ${className}` : "data-table"}
      aria-label={label}
      aria-labelledby={labelledBy}
      aria-busy={busy}
    >
      {caption !== undefined ? <caption className={captionClassName}>{caption}</caption> : null}
      <thead>
        <tr>
          {columns.map((c, i) => (
            <ColumnHeader key={i} column={c} />
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
      {foot}
    </table>
  );
}

/** A row's header cell naming a record and linking to its page (`/hosts/NAME`, `/aggregates/NAME`…). */
export function RecordRowHeader({
  kind,
  id,
  children,
}: {
  kind: "hosts" | "aggregates" | "flavors" | "instances";
  id: string;
  children?: ReactNode;
}) {
  return (
    <th scope="row">
      <Link href={`/${kind}/${encodeURIComponent(id)}`}>{children ?? id}</Link>
    </th>
  );
}
