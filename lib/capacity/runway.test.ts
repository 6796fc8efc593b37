import { describe, expect, it } from "vitest";
import { fitLine, runway, runwaySentence, tQuantile95, upperBound } from "./runway";

// 90 daily snapshots, days 0..89; "now" is day 89.
const days = Array.from({ length: 90 }, (_, t) => t);

describe("runway", () => {
  it("a steady growth of 10 GiB a day with 380 GiB of headroom is full in 38 days, on the date a hand computation gives", () => {
    const pts = days.map((t) => ({ t, y: 1000 + 10 * t }));
    // today's allocation 1000 + 890 = 1890; ceiling 1890 + 380 → (2270 − 1000) / 10 = day 127 = 38 days after day 89
    const r = runway(pts, { now: 89, windowDays: 30, ceiling: 2270 });
    expect(r.status).toBe("forecast");
    if (r.status !== "forecast") return;
    expect(r.slopePerDay).toBeCloseTo(10, 9);
    expect(r.days).toBeCloseTo(38, 9);
    // no scatter: the band is the line itself
    expect(r.conservativeDays).toBeCloseTo(38, 6);
    const now = Date.UTC(2026, 10, 28);
    expect(new Date(now + Math.floor(r.days) * 86_400_000).toISOString().slice(0, 10)).toBe("2027-01-05");
    expect(runwaySentence("m1.large", 412, 30, r)).toBe(
      "412 more m1.large; at the 30-day trend, full for m1.large in 38 days (38 conservatively)",
    );
  });

  it("the 30-day and the 90-day trend differ when growth sped up: each window fits its own days", () => {
    // 5 a day for days 0..59, then 10 a day: the last 30 days (60..89) grow by 10
    const pts = days.map((t) => ({ t, y: t < 60 ? 5 * t : 300 + 10 * (t - 60) }));
    const ceiling = 590 + 400;
    const r30 = runway(pts, { now: 89, windowDays: 30, ceiling });
    const r90 = runway(pts, { now: 89, windowDays: 90, ceiling });
    if (r30.status !== "forecast" || r90.status !== "forecast") throw new Error("expected forecasts");
    expect(r30.days).toBeCloseTo(40, 9); // 400 / 10
    // the 90-day line is slower (its slope by hand: Σ(t−44.5)(y−ȳ)/Σ(t−44.5)², between 5 and 10)
    const f90 = fitLine(pts);
    expect(r90.slopePerDay).toBeCloseTo(f90.slope, 12);
    expect(f90.slope).toBeGreaterThan(5);
    expect(f90.slope).toBeLessThan(10);
    expect(r90.days).toBeGreaterThan(r30.days);
  });

  it("scatter around the trend gives an earlier conservative date from the upper prediction bound", () => {
    // ±20 alternating around 1000 + 10t: the slope stays 10 within 0.03; residual s ≈ 20
    const pts = days.map((t) => ({ t, y: 1000 + 10 * t + (t % 2 ? 20 : -20) }));
    const r = runway(pts, { now: 89, windowDays: 90, ceiling: 2270 });
    if (r.status !== "forecast") throw new Error("expected a forecast");
    expect(r.days).toBeGreaterThan(37.5);
    expect(r.days).toBeLessThan(38.5);
    // the bound sits ≈ 1.66 × 20.1 × 1.03 ≈ 34 above the line: about 3.4 days earlier
    expect(r.days - r.conservativeDays).toBeGreaterThan(3);
    expect(r.days - r.conservativeDays).toBeLessThan(4);
    expect(upperBound(r.fit, 89)).toBeGreaterThan(r.fit.intercept + r.fit.slope * 89);
  });

  it.each([
    { history: 6, status: "short-history" },
    { history: 7, status: "forecast" },
  ])("with $history days of history: $status", ({ history, status }) => {
    const pts = Array.from({ length: history + 1 }, (_, t) => ({ t, y: 100 + t }));
    const r = runway(pts, { now: history, windowDays: 30, ceiling: 1000 });
    expect(r.status).toBe(status);
    if (r.status === "short-history") expect(runwaySentence("m1.small", 3, 30, r)).toMatch(/at least 7 days/);
  });

  it("a falling trend never fills", () => {
    const pts = days.map((t) => ({ t, y: 2000 - t }));
    expect(runway(pts, { now: 89, windowDays: 30, ceiling: 5000 }).status).toBe("no-growth");
  });

  it.each([
    [3, 2.353],
    [10, 1.812],
    [30, 1.697],
    [88, 1.6624],
  ])("Student's t 95%% quantile at %i degrees of freedom is %f", (df, q) => {
    expect(tQuantile95(df)).toBeCloseTo(q, 2);
  });
});
