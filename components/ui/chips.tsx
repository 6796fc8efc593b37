import type { ReactNode } from "react";

export interface Chip {
  key: string;
  value: string;
  /** what reads this key (a tooltip) */
  title?: string;
  className?: string;
  /** shown after key=value */
  note?: ReactNode;
}

/** key=value pairs (metadata, extra specs, properties) as chips; "none" when there are none. */
export function KeyValueChips({ chips }: { chips: Chip[] }) {
  if (!chips.length) return <span className="muted">none</span>;
  return (
    <ul className="chips">
      {chips.map((c) => (
        <li key={c.key} title={c.title} className={c.className}>
          <code>
            {c.key}={c.value}
          </code>
          {c.note ? <> {c.note}</> : null}
        </li>
      ))}
    </ul>
  );
}
