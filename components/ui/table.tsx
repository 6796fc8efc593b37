import type { ReactNode } from "react";

/** A column header that only screen readers read (a column of row buttons). */
export function HiddenColumnHeader({ children }: { children: ReactNode }) {
  return (
    <th scope="col">
      <span className="visually-hidden">{children}</span>
    </th>
  );
}
