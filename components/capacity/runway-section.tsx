/**
 * Runway on /capacity and the overview: the sentence per AZ and window, the
 * chart (trend, band, date), and the what-if form (add N hosts like host
 * X). A plain GET form: the page reads its parameters through the one page
 * parameter reader, and the answer is a page anyone can bookmark.
 */
import type { RunwayView } from "@/lib/metrics/runway-view";
import { RunwayChart } from "./runway-chart";

export function RunwaySection({
  view,
  action,
  compact = false,
  error,
}: {
  view: RunwayView;
  action: string;
  compact?: boolean;
  error?: string | null;
}) {
  return (
    <section aria-labelledby="runway-h" className="runway">
      <h2 id="runway-h">Runway</h2>
      {error && (
        <p role="alert" className="form-error">
          {error}
        </p>
      )}
      {view.status !== "ready" ? (
        <p className="empty">{view.message}</p>
      ) : (
        <>
          <p className="muted small">
            From {view.historyDays} days of snapshots: the trend of what is allocated per AZ (least squares over the
            last 30 and 90 days; conservative: the 95% upper prediction bound), against the free slots the exact fill
            leaves for the flavor.
          </p>
          {!compact && (
            <form method="get" action={action} className="runway-form" aria-label="Runway what-if">
              <label>
                Flavor{" "}
                <select name="flavor" defaultValue={view.flavor}>
                  {view.flavors.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </select>
              </label>{" "}
              <label>
                Add hosts <input name="add" type="number" min={0} max={10000} defaultValue={view.whatIf?.hosts ?? ""} />
              </label>{" "}
              <label>
                like host <input name="like" list="runway-hosts" defaultValue={view.whatIf?.like ?? ""} />
              </label>
              <datalist id="runway-hosts">
                {view.hosts.slice(0, 500).map((h) => (
                  <option key={h} value={h} />
                ))}
              </datalist>{" "}
              <button type="submit">Show runway</button>
            </form>
          )}
          {view.whatIf && (
            <p role="status">
              What-if: {view.whatIf.hosts} more hosts like {view.whatIf.like} in {view.whatIf.az}, each taking{" "}
              {view.whatIf.perHost} more {view.flavor} by the exact fill.
            </p>
          )}
          <ul className="runway-sentences">
            {view.rows.map((r) => (
              <li key={`${r.az}-${r.window}`}>
                {r.sentence}
                {r.fullDate && (
                  <>
                    {" "}
                    — {r.fullDate} ({r.conservativeDate} conservatively)
                  </>
                )}
              </li>
            ))}
          </ul>
          {view.rows
            .filter((r) => r.window === 30)
            .slice(0, compact ? 1 : 12)
            .map((r) => (
              <RunwayChart key={`${r.az}-${r.window}`} row={r} />
            ))}
        </>
      )}
    </section>
  );
}
