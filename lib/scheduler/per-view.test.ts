import { describe, expect, it } from "vitest";
import { AggregateView } from "./host-state";
import { PerAggregateView } from "./per-view";

describe("PerAggregateView", () => {
  it("computes once per view, remembers null answers, and forgets on reset", () => {
    const calls: number[] = [];
    const memo = new PerAggregateView((v) => {
      calls.push(v.id);
      return v.id === 0 ? null : `view ${v.id}`;
    });
    const a = new AggregateView([], 0);
    const b = new AggregateView([], 1);
    expect([memo.get(a), memo.get(b), memo.get(a), memo.get(b)]).toEqual([null, "view 1", null, "view 1"]);
    expect(calls).toEqual([0, 1]);
    memo.reset();
    memo.get(a);
    expect(calls).toEqual([0, 1, 0]);
  });
});
