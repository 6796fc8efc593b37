import { describe, expect, it } from "vitest";
import { hodgesLehmann, mannWhitneyCdf, mannWhitneyCritical, quantile, ratioOf, spread } from "./stats";

describe("quantile", () => {
  it.each([
    { xs: [3, 1, 2], q: 0.5, want: 2 },
    { xs: [4, 1, 3, 2], q: 0.5, want: 2.5 },
    { xs: [1, 2, 3, 4, 5], q: 0.25, want: 2 },
    { xs: [1, 2, 3, 4], q: 0.25, want: 1.75 },
    { xs: [7], q: 0.9, want: 7 },
    { xs: [5, 1], q: 0, want: 1 },
    { xs: [5, 1], q: 1, want: 5 },
  ])("$q of $xs is $want", ({ xs, q, want }) => {
    expect(quantile(xs, q)).toBeCloseTo(want, 12);
  });
  it("leaves its argument as it is", () => {
    const xs = [3, 1, 2];
    spread(xs);
    expect(xs).toEqual([3, 1, 2]);
  });
});

describe("Mann–Whitney", () => {
  it("counts U's null distribution: 2 and 2 figures interleave 6 ways, U = 0 1 2 2 3 4", () => {
    expect(mannWhitneyCdf(2, 2)).toEqual([1 / 6, 2 / 6, 4 / 6, 5 / 6, 1].map((x) => expect.closeTo(x, 12)));
  });
  // Two-sided critical values at 0.05, from the published tables (e.g. Siegel & Castellan, table J).
  it.each([
    { n: 3, m: 3, want: -1 },
    { n: 3, m: 5, want: 0 },
    { n: 4, m: 6, want: 2 },
    { n: 5, m: 5, want: 2 },
    { n: 6, m: 6, want: 5 },
    { n: 7, m: 7, want: 8 },
    { n: 8, m: 8, want: 13 },
    { n: 9, m: 9, want: 17 },
    { n: 10, m: 10, want: 23 },
    { n: 12, m: 12, want: 37 },
    { n: 15, m: 15, want: 64 },
    { n: 20, m: 20, want: 127 },
  ])("critical U for $n and $m figures is $want", ({ n, m, want }) => {
    expect(mannWhitneyCritical(n, m)).toBe(want);
  });
  it("the normal approximation beyond the exact table lands where the exact one ends", () => {
    // 50 × 50 is the last exact size; 51 × 51 by the normal approximation, a few pairs further out.
    const exact = mannWhitneyCritical(50, 50);
    const approx = mannWhitneyCritical(51, 51);
    expect(approx - exact).toBeGreaterThan(30);
    expect(approx - exact).toBeLessThan(70);
  });
});

describe("Hodges–Lehmann shift and its interval", () => {
  it.each([
    // b = a + 10: pairwise differences 6 … 14, the 3rd and 23rd of 25 are 7 and 13
    { a: [1, 2, 3, 4, 5], b: [11, 12, 13, 14, 15], estimate: 10, low: 7, high: 13 },
    // the same figures on both sides: no shift, an interval around 0
    { a: [1, 2, 3, 4, 5], b: [1, 2, 3, 4, 5], estimate: 0, low: -3, high: 3 },
    // too few figures for a 95 % interval: it is unbounded
    { a: [1, 2, 3], b: [4, 5, 6], estimate: 3, low: -Infinity, high: Infinity },
  ])("a $a, b $b: $estimate in [$low, $high]", ({ a, b, estimate, low, high }) => {
    expect(hodgesLehmann(a, b)).toEqual({ estimate, low, high });
  });
});

describe("ratio of B to A", () => {
  const a = [3.4, 3.6, 3.5, 6.9, 3.8, 3.5, 5.5, 3.6, 3.7, 3.9];
  it.each([
    { what: "B twice A, every process", b: a.map((x) => 2 * x), ratio: 2, beyond: true },
    { what: "B the same processes in another order", b: [...a].reverse(), ratio: 1, beyond: false },
    {
      what: "B 5 % slower with A's spread: within the noise",
      b: [3.6, 3.8, 3.7, 7.2, 4.0, 3.7, 5.8, 3.8, 3.9, 4.1].reverse(),
      ratio: 1.05,
      beyond: false,
    },
    {
      what: "B 30 % slower, tight: beyond it",
      b: [4.6, 4.7, 4.5, 4.8, 4.6, 4.7, 4.6, 4.9, 4.5, 4.7],
      ratio: 1.28,
      beyond: true,
    },
  ])("$what", ({ b, ratio, beyond }) => {
    const r = ratioOf(a, b);
    expect(r.ratio).toBeCloseTo(ratio, 1);
    expect(r.low).toBeLessThanOrEqual(r.ratio);
    expect(r.high).toBeGreaterThanOrEqual(r.ratio);
    expect(r.beyondNoise).toBe(beyond);
  });
});
