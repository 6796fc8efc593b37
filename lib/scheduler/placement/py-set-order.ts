/**
 * The order CPython 3.11 iterates a set of (int, int) tuples in: Placement
 * keeps the providers that can hold a request group in such a set, and the
 * order it lists a numbered group's allocation requests in is that set's.
 * Tuple hash (xxHash-based, Objects/tupleobject.c), then set insertion with
 * linear probing and perturbation (Objects/setobject.c), resizes included.
 * Ints below 2**61 - 1 hash to themselves, so this is exact for provider ids.
 * (numa/pyset.ts is the same table for sets of ints, which hash to themselves.)
 */
const MASK64 = (1n << 64n) - 1n;
const XXPRIME_1 = 11400714785074694791n;
const XXPRIME_2 = 14029467366897019727n;
const XXPRIME_5 = 2870177450012600261n;
const LINEAR_PROBES = 9;
const PERTURB_SHIFT = 5n;

/** hash((a, b)) as a size_t (the bits CPython masks). */
export function tupleHash(a: number, b: number): bigint {
  let acc = XXPRIME_5;
  for (const lane of [BigInt(a), BigInt(b)]) {
    acc = (acc + lane * XXPRIME_2) & MASK64;
    acc = ((acc << 31n) | (acc >> 33n)) & MASK64;
    acc = (acc * XXPRIME_1) & MASK64;
  }
  acc = (acc + (2n ^ (XXPRIME_5 ^ 3527539n))) & MASK64;
  if (acc === MASK64) return 1546275796n;
  return acc;
}

function insertClean(table: Array<number | null>, hashes: bigint[], mask: number, item: number, hash: bigint): void {
  let perturb = hash;
  let i = Number(hash & BigInt(mask));
  for (;;) {
    if (table[i] === null) {
      table[i] = item;
      hashes[i] = hash;
      return;
    }
    if (i + LINEAR_PROBES <= mask) {
      for (let j = 1; j <= LINEAR_PROBES; j++) {
        if (table[i + j] === null) {
          table[i + j] = item;
          hashes[i + j] = hash;
          return;
        }
      }
    }
    perturb >>= PERTURB_SHIFT;
    i = Number((BigInt(i) * 5n + 1n + perturb) & BigInt(mask));
  }
}

/**
 * Positions of `items` (distinct (int, int) pairs, added in this order, as
 * `set(generator)` adds them) in the order the set iterates them.
 */
export function pySetOrder(items: ReadonlyArray<readonly [number, number]>): number[] {
  let mask = 7;
  let table: Array<number | null> = new Array(8).fill(null);
  let hashes: bigint[] = new Array(8).fill(0n);
  let used = 0;
  for (let k = 0; k < items.length; k++) {
    const hash = tupleHash(items[k][0], items[k][1]);
    insertClean(table, hashes, mask, k, hash);
    used++;
    if (used * 5 >= mask * 3) {
      const minused = used > 50000 ? used * 2 : used * 4;
      let size = 8;
      while (size <= minused) size <<= 1;
      const oldTable = table;
      const oldHashes = hashes;
      mask = size - 1;
      table = new Array(size).fill(null);
      hashes = new Array(size).fill(0n);
      for (let s = 0; s < oldTable.length; s++)
        if (oldTable[s] !== null) insertClean(table, hashes, mask, oldTable[s]!, oldHashes[s]);
    }
  }
  return table.filter((x): x is number => x !== null);
}
