/**
 * The order of Python's sorted(weighed, key=weight, reverse=True): heaviest
 * first, equal weights in their original order (Python's sort is stable).
 *
 * No comparator closure (Array.prototype.sort with one calls it for every
 * comparison): merges over typed arrays.
 */
export function orderByWeight(weights: Float64Array): number[] {
  const n = weights.length;
  const runs = runsIn(weights);
  if (runs < 0) return toArray(bottomUp(weights), n);
  // Nearly in order (a later instance's hosts come in the previous order): merge the runs.
  // toArray, not Array.from: from a typed array that goes through its
  // iterator, a quarter of a 50-instance request's sorting time (--cpu-prof).
  return runs * 64 <= n ? toArray(natural(weights), n) : bySortedWeights(weights);
}

/**
 * How many runs in order (heaviest first) the weights make; -1 with a NaN.
 * A function of its own: inside orderByWeight, V8 compiled orderByWeight
 * from this loop on its first call, before the lines after it had run, and
 * with `node --single-threaded` that code gave up after the loop on every
 * request ("Insufficient type feedback for binary operation").
 */
function runsIn(weights: Float64Array): number {
  let runs = 1;
  for (let i = 0; i < weights.length; i++) {
    if (Number.isNaN(weights[i])) return -1;
    if (i && weights[i] > weights[i - 1]) runs++;
  }
  return runs;
}

/*
 * Work arrays kept from call to call (a sort never re-enters another): a
 * request of 50 instances sorts 50 times, and fresh arrays each time only
 * fed the garbage collector.
 */
const intScratch: Int32Array[] = [];
const floatScratch: Float64Array[] = [];

function ints(slot: number, n: number): Int32Array {
  if ((intScratch[slot]?.length ?? -1) < n) intScratch[slot] = new Int32Array(Math.max(n, 1024));
  return intScratch[slot].subarray(0, n);
}

function floats(slot: number, n: number): Float64Array {
  if ((floatScratch[slot]?.length ?? -1) < n) floatScratch[slot] = new Float64Array(Math.max(n, 1024));
  return floatScratch[slot].subarray(0, n);
}

/**
 * A bottom-up merge sort that moves each weight with its position, so a
 * comparison reads two neighbouring weights instead of chasing positions
 * into the weights; short runs are first put in order by insertion.
 * Each loop is a function of its own: V8 then compiles it whole, with the
 * types every access has seen. Compiled from inside an earlier loop, a later
 * loop has no type feedback yet, and the compiled code gives up there and
 * leaves the loop to the interpreter, request after request.
 */
function bySortedWeights(weights: Float64Array): number[] {
  const n = weights.length;
  let keys = floats(0, n);
  let idx = ints(0, n);
  let keys2 = floats(1, n);
  let idx2 = ints(1, n);
  keys.set(weights);
  insertionRuns(keys, idx, n);
  for (let width = RUN; width < n; width *= 2) {
    mergePass(keys, idx, keys2, idx2, n, width);
    [keys, keys2] = [keys2, keys];
    [idx, idx2] = [idx2, idx];
  }
  return toArray(idx, n);
}

const RUN = 16;

/** Positions 0..n-1, each run of RUN put in order by insertion (heavier first, ties in order). */
function insertionRuns(keys: Float64Array, idx: Int32Array, n: number): void {
  for (let i = 0; i < n; i++) idx[i] = i;
  for (let lo = 0; lo < n; lo += RUN) {
    const hi = Math.min(lo + RUN, n);
    for (let i = lo + 1; i < hi; i++) {
      const k = keys[i];
      const x = idx[i];
      let j = i - 1;
      // Heavier first; an equal weight stays behind the earlier one.
      while (j >= lo && keys[j] < k) {
        keys[j + 1] = keys[j];
        idx[j + 1] = idx[j];
        j--;
      }
      keys[j + 1] = k;
      idx[j + 1] = x;
    }
  }
}

/** One pass: each pair of neighbouring runs of `width` merged into keys2/idx2. */
function mergePass(
  keys: Float64Array,
  idx: Int32Array,
  keys2: Float64Array,
  idx2: Int32Array,
  n: number,
  width: number,
): void {
  for (let lo = 0; lo < n; lo += 2 * width) {
    const mid = Math.min(lo + width, n);
    const hi = Math.min(lo + 2 * width, n);
    let i = lo;
    let j = mid;
    let k = lo;
    while (i < mid && j < hi) {
      if (keys[j] > keys[i]) {
        keys2[k] = keys[j];
        idx2[k++] = idx[j++];
      } else {
        keys2[k] = keys[i];
        idx2[k++] = idx[i++];
      }
    }
    while (i < mid) {
      keys2[k] = keys[i];
      idx2[k++] = idx[i++];
    }
    while (j < hi) {
      keys2[k] = keys[j];
      idx2[k++] = idx[j++];
    }
  }
}

function toArray(idx: Int32Array, n: number): number[] {
  const order = new Array<number>(n);
  for (let i = 0; i < n; i++) order[i] = idx[i];
  return order;
}

/**
 * Without NaN every stable sort gives the same order, so this one merges the
 * runs already in order: a later instance of a request weighs its hosts in
 * the previous instance's order, and the weights have barely moved, so there
 * are few runs and few passes.
 */
function natural(weights: Float64Array): Int32Array {
  const n = weights.length;
  let from = ints(0, n);
  let to = ints(1, n);
  for (let i = 0; i < n; i++) from[i] = i;
  // Run boundaries: a run ends where the next weight is heavier.
  let bounds = ints(2, n + 1);
  let runs = 0;
  bounds[0] = 0;
  for (let i = 1; i < n; i++) if (weights[i] > weights[i - 1]) bounds[++runs] = i;
  bounds[++runs] = n;
  let next = ints(3, n + 1);
  while (runs > 1) {
    let merged = 0;
    next[0] = 0;
    let r = 0;
    for (; r + 1 < runs; r += 2) {
      merge(weights, from, to, bounds[r], bounds[r + 1], bounds[r + 2]);
      next[++merged] = bounds[r + 2];
    }
    if (r < runs) {
      to.set(from.subarray(bounds[r], n), bounds[r]);
      next[++merged] = n;
    }
    [from, to] = [to, from];
    [bounds, next] = [next, bounds];
    runs = merged;
  }
  return from;
}

/** Merge from[lo, mid) and from[mid, hi) into to[lo, hi). */
function merge(weights: Float64Array, from: Int32Array, to: Int32Array, lo: number, mid: number, hi: number): void {
  let i = lo;
  let j = mid;
  let k = lo;
  // Take from the right run only when strictly heavier: ties stay in order.
  while (i < mid && j < hi) to[k++] = weights[from[j]] > weights[from[i]] ? from[j++] : from[i++];
  while (i < mid) to[k++] = from[i++];
  while (j < hi) to[k++] = from[j++];
}

/** Bottom-up from runs of one: with NaN (no total order) this is the order the engine has always given. */
function bottomUp(weights: Float64Array): Int32Array {
  const n = weights.length;
  let from = new Int32Array(n);
  let to = new Int32Array(n);
  for (let i = 0; i < n; i++) from[i] = i;
  for (let width = 1; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width)
      merge(weights, from, to, lo, Math.min(lo + width, n), Math.min(lo + 2 * width, n));
    [from, to] = [to, from];
  }
  return from;
}
