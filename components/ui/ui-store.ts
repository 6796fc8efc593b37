"use client";

/**
 * UI-only state (zustand): table density and which panels are open.
 * Persisted in localStorage; rehydrated after mount so the server HTML and
 * the first client render agree.
 */
import { create } from "zustand";
import { persist } from "zustand/middleware";

export type Density = "comfortable" | "compact";

interface UiState {
  density: Density;
  setDensity: (d: Density) => void;
  /** Disclosure panels by id (e.g. "aggregate-help"). */
  open: Record<string, boolean>;
  setOpen: (id: string, open: boolean) => void;
}

export const useUiStore = create<UiState>()(
  persist(
    (set) => ({
      density: "comfortable",
      setDensity: (density) => set({ density }),
      open: {},
      setOpen: (id, open) => set((s) => ({ open: { ...s.open, [id]: open } })),
    }),
    { name: "schedscope-ui", skipHydration: true },
  ),
);
