"use client";

import { useEffect, type ReactNode } from "react";
import { useUiStore, type Density } from "./ui-store";

function useHydratedUi() {
  useEffect(() => {
    void useUiStore.persist.rehydrate();
  }, []);
}

/** Wraps a table; compact density tightens its rows. */
export function DensityFrame({ children }: { children: ReactNode }) {
  useHydratedUi();
  const density = useUiStore((s) => s.density);
  return (
    <div className="density-frame" data-density={density}>
      {children}
    </div>
  );
}

const OPTIONS: { value: Density; label: string }[] = [
  { value: "comfortable", label: "Comfortable" },
  { value: "compact", label: "Compact" },
];

export function DensityToggle() {
  useHydratedUi();
  const density = useUiStore((s) => s.density);
  const setDensity = useUiStore((s) => s.setDensity);
  return (
    <div className="segmented" role="group" aria-label="Table density">
      {OPTIONS.map((o) => (
        <button
          key={o.value}
          type="button"
          className="btn small"
          aria-pressed={density === o.value}
          onClick={() => setDensity(o.value)}
        >
          {o.label}
        </button>
      ))}
    </div>
  );
}

/** A <details> whose open state is remembered (UI state only). */
export function RememberedDetails({
  id,
  summary,
  children,
  defaultOpen = false,
}: {
  id: string;
  summary: ReactNode;
  children: ReactNode;
  defaultOpen?: boolean;
}) {
  useHydratedUi();
  const open = useUiStore((s) => s.open[id] ?? defaultOpen);
  const setOpen = useUiStore((s) => s.setOpen);
  return (
    <details
      className="panel-details"
      open={open}
      onToggle={(e) => {
        const now = (e.currentTarget as HTMLDetailsElement).open;
        if (now !== open) setOpen(id, now);
      }}
    >
      <summary>{summary}</summary>
      {children}
    </details>
  );
}
