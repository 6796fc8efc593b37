import { describe, expect, it } from "vitest";
import { PySet } from "./pyset";

// Iteration orders printed by CPython 3.11 (list(s)) for the same operations.
const CASES: Array<{ name: string; build: () => PySet; order: number[] }> = [
  { name: "two colliding CPUs: 13 before 5", build: () => PySet.of([5, 13]), order: [13, 5] },
  { name: "SMT siblings of an 8-core host", build: () => PySet.of([3, 11]), order: [11, 3] },
  {
    name: "a set grown past 4 items is rehashed",
    build: () => PySet.of([40, 8, 16, 24, 32]),
    order: [32, 40, 8, 16, 24],
  },
  {
    name: "intersection walks the smaller set",
    build: () => PySet.of([1, 9, 17, 25, 33, 41]).and(PySet.of([41, 33, 9])),
    order: [41, 9, 33],
  },
  {
    name: "difference of a large set",
    build: () => PySet.of([0, 8, 16, 24, 32, 40, 48, 56, 64]).minus(PySet.of([16])),
    order: [0, 32, 64, 8, 40, 48, 24, 56],
  },
  {
    name: "discard leaves a dummy the next add may take",
    build: () => {
      const s = PySet.of([5, 13, 21]);
      s.discard(13);
      s.add(29);
      return s;
    },
    order: [29, 21, 5],
  },
];

describe("PySet iterates like a CPython set (the order Nova pins CPUs in)", () => {
  it.each(CASES)("$name", ({ build, order }) => {
    expect(build().values()).toEqual(order);
  });
});
