/**
 * The iteration order of Python sets of (int, int) tuples; each expected
 * order is what CPython 3.11 (/usr/bin/python3, the reference's interpreter)
 * printed for list(set(items)).
 */
import { describe, expect, it } from "vitest";
import { pySetOrder } from "./py-set-order";

type Pair = [number, number];

describe("pySetOrder", () => {
  it.each<[string, Pair[], Pair[]]>([
    [
      "three providers of one tree",
      [
        [1, 1],
        [2, 1],
        [3, 1],
      ],
      [
        [3, 1],
        [1, 1],
        [2, 1],
      ],
    ],
    [
      "two trees, a resize on the way",
      [
        [5, 1],
        [6, 1],
        [7, 1],
        [8, 1],
        [9, 9],
        [10, 9],
      ],
      [
        [7, 1],
        [9, 9],
        [8, 1],
        [6, 1],
        [5, 1],
        [10, 9],
      ],
    ],
    [
      "thirteen providers",
      [
        [1, 1],
        [4, 1],
        [7, 1],
        [10, 1],
        [13, 1],
        [16, 1],
        [19, 1],
        [22, 20],
        [25, 20],
        [28, 20],
        [31, 20],
        [34, 20],
        [37, 20],
      ],
      [
        [37, 20],
        [7, 1],
        [28, 20],
        [13, 1],
        [19, 1],
        [31, 20],
        [34, 20],
        [1, 1],
        [22, 20],
        [10, 1],
        [4, 1],
        [25, 20],
        [16, 1],
      ],
    ],
    [
      "29 roots: two resizes and collisions",
      Array.from({ length: 29 }, (_, i): Pair => [i + 1, i + 1]),
      [20, 29, 2, 11, 7, 16, 25, 26, 3, 12, 21, 22, 8, 17, 27, 13, 18, 4, 5, 14, 23, 9, 1, 24, 10, 19, 28, 6, 15].map(
        (n): Pair => [n, n],
      ),
    ],
  ])("%s", (_, items, expected) => {
    expect(pySetOrder(items).map((i) => items[i])).toEqual(expected);
  });
});
