/** An accessible usage bar: role="meter" with a visible label and value text. */
export function UsageBar({
  label,
  used,
  total,
  unit,
  format = (n: number) => new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 }).format(n),
  detail,
}: {
  label: string;
  used: number;
  total: number;
  unit?: string;
  format?: (n: number) => string;
  detail?: string;
}) {
  const pct = total > 0 ? (used / total) * 100 : used > 0 ? 100 : 0;
  const level = pct >= 90 ? "high" : pct >= 70 ? "mid" : "low";
  const text = `${format(used)} of ${format(total)}${unit ? ` ${unit}` : ""} used (${pct.toFixed(0)}%)`;
  const id = `meter-${label.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
  return (
    <div className="usage">
      <div className="usage-head">
        <span id={id} className="usage-label">
          {label}
        </span>
        <span className="usage-text">{text}</span>
      </div>
      <div
        className={`meter meter-${level}`}
        role="meter"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={Math.max(total, used)}
        aria-valuenow={used}
        aria-valuetext={text}
      >
        <span className="meter-fill" style={{ width: `${Math.min(100, pct)}%` }} />
      </div>
      {detail ? <div className="usage-detail muted">{detail}</div> : null}
    </div>
  );
}

/** A small inline bar for table cells (decorative; the cell text carries the value). */
export function MiniBar({ used, total }: { used: number; total: number }) {
  const pct = total > 0 ? Math.min(100, (used / total) * 100) : 0;
  const level = pct >= 90 ? "high" : pct >= 70 ? "mid" : "low";
  return (
    <span className={`minibar meter-${level}`} aria-hidden="true">
      <span className="meter-fill" style={{ width: `${pct}%` }} />
    </span>
  );
}
