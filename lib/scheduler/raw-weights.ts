import type { HostState } from "./host-state";
import type { HostWeigher } from "./plugin";
import type { RequestSpec } from "./request-spec";

/**
 * Raw weights (clamped to the weigher's minval/maxval) per host and weigher,
 * kept across the instances of one request: a host's values are computed
 * again only after `forget` (its consume changed it). Indexed by
 * HostState.index, so every host weighed must be one of `hosts`; a host's
 * values sit side by side (values[index * weighers + k]), as they are read.
 */
export class RawWeights {
  private readonly n: number;
  private readonly W: number;
  private readonly values: Float64Array;
  /** 1 when values hold the host's raw weights for every weigher. */
  private readonly held: Uint8Array;

  constructor(hosts: HostState[], weighers: number) {
    this.n = hosts.length;
    this.W = weighers;
    for (let i = 0; i < hosts.length; i++)
      if (hosts[i].index !== i) throw new Error("RawWeights: hosts must be in HostState.index order");
    this.values = new Float64Array(this.n * weighers);
    this.held = new Uint8Array(this.n);
  }

  forget(host: HostState): void {
    this.held[host.index] = 0;
  }

  forgetAll(): void {
    this.held.fill(0);
  }

  /** Positions in `at` (host indices) whose values are not held. */
  missing(at: Int32Array): number[] {
    const out: number[] = [];
    for (let i = 0; i < at.length; i++) if (!this.held[at[i]]) out.push(i);
    return out;
  }

  /**
   * The raw columns (one per weigher) of the hosts whose indices are `at`:
   * the `missing` positions weighed (weigher by weigher, in host order, as
   * the engine weighs) and then held, the others copied.
   */
  fill(
    weighers: HostWeigher[],
    hosts: HostState[],
    at: Int32Array,
    missing: number[],
    spec: RequestSpec,
    columns: Float64Array[],
  ): void {
    const { values, W } = this;
    for (let k = 0; k < W; k++)
      for (const i of missing) values[at[i] * W + k] = clampedWeight(weighers[k], hosts[i], spec);
    gather(values, W, at, columns);
  }

  /** Every column of the hosts whose indices are `at` was filled: their values are held from now on. */
  settle(at: Int32Array): void {
    for (let i = 0; i < at.length; i++) this.held[at[i]] = 1;
  }
}

// The copy loop calls nothing: it stays compiled whichever weighers run.
function gather(values: Float64Array, W: number, at: Int32Array, columns: Float64Array[]): void {
  for (let i = 0; i < at.length; i++) {
    const from = at[i] * W;
    for (let k = 0; k < W; k++) columns[k][i] = values[from + k];
  }
}

/** A weigher's raw value of one host, clamped to its minval and maxval. */
export function clampedWeight(w: HostWeigher, host: HostState, spec: RequestSpec): number {
  let v = w.weigh(host, spec);
  if (w.minval !== undefined && v < w.minval) v = w.minval;
  if (w.maxval !== undefined && v > w.maxval) v = w.maxval;
  return v;
}
