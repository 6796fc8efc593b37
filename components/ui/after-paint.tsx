"use client";

import { type ReactNode, startTransition, useEffect, useState } from "react";

/**
 * Renders `children` once the text around it has been painted, as a
 * low-priority update. A recharts chart costs more to draw than the whole
 * result's text and tables; drawn in the same render it would hold back the
 * chosen host and the funnel table. Until then a placeholder of the same
 * height keeps the page from jumping.
 */
export function AfterPaint({ height, children }: { height: number; children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    // the frame after this one has painted: rAF runs before paint, the timeout after it
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setReady(true)), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, []);
  if (ready) return children;
  return (
    <div className="sc-chart-pending" style={{ height }} data-chart-pending="">
      Drawing the chart…
    </div>
  );
}
