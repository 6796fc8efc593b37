"use client";

import { useEffect, useState } from "react";

/** `value`, settled for `ms` (search boxes: one query when the typing pauses, not one per key). */
export function useDebounced<T>(value: T, ms = 200): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setV(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return v;
}
