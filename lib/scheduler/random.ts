/**
 * A seeded generator (mulberry32) for the randomness the engine is handed
 * (host_subset_size, shuffle_best_same_weighed_hosts): the same seed gives
 * the same answer, in tests, benchmarks and the demo cloud.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
