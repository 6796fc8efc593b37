import { describe, expect, it } from "vitest";
import { mulberry32 } from "@/lib/scheduler/random";
import { orderByWeight } from "./weight-order";

// Python: [i for i, _ in sorted(enumerate(ws), key=lambda p: p[1], reverse=True)]
describe("orderByWeight is Python's stable sorted(reverse=True)", () => {
  it.each([
    { weights: [], want: [] },
    { weights: [1], want: [0] },
    { weights: [1, 3, 2], want: [1, 2, 0] },
    { weights: [2, 2, 2], want: [0, 1, 2] },
    { weights: [0, 5, 0, 5, 1], want: [1, 3, 4, 0, 2] },
    { weights: [-1, -0.5, -2, -0.5], want: [1, 3, 0, 2] },
  ])("$weights → $want", ({ weights, want }) => {
    expect(orderByWeight(Float64Array.from(weights))).toEqual(want);
  });

  it("agrees with a stable comparator sort on inputs nearly in order, one sort after another of other sizes", () => {
    // a later instance weighs its hosts in the previous instance's order: few runs
    const rnd = mulberry32(11);
    for (const n of [5000, 700, 3000, 64, 5000]) {
      const w = Float64Array.from({ length: n }, (_, i) => Math.floor((n - i) / 3) + (rnd() < 0.005 ? 50 : 0));
      const want = [...w.keys()].sort((a, b) => w[b] - w[a] || a - b);
      expect(orderByWeight(w)).toEqual(want);
    }
  });

  it("agrees with a stable comparator sort on larger inputs with many ties", () => {
    const rnd = mulberry32(7);
    for (const n of [2, 3, 17, 64, 1000, 4097]) {
      const w = Float64Array.from({ length: n }, () => Math.floor(rnd() * 20) / 4);
      const want = [...w.keys()].sort((a, b) => w[b] - w[a] || a - b);
      expect(orderByWeight(w)).toEqual(want);
    }
  });
});
