import type { HostState } from "./host-state";
import type { HostWeigher } from "./plugin";
import type { RequestSpec } from "./request-spec";

/**
 * Raw weights (clamped to the weigher's minval/maxval) per weigher and host,
 * kept across the instances of one request: a host's values are computed
 * again only after `forget` (its consume changed it). Indexed by
 * HostState.index, so every host weighed must be one of `hosts`.
 */
export class RawWeights {
  private readonly n: number;
  private readonly values: Float64Array;
  /** 1 when values hold the host's raw weights for every weigher. */
  private readonly held: Uint8Array;

  constructor(hosts: HostState[], weighers: number) {
    this.n = hosts.length;
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

  /** Column k of `hosts` (whose indices are `at`) into `raw`, weighing the hosts not held. */
  fill(k: number, w: HostWeigher, hosts: HostState[], at: Int32Array, spec: RequestSpec, raw: Float64Array): void {
    const { values, held } = this;
    const base = k * this.n;
    const { minval, maxval } = w;
    for (let i = 0; i < hosts.length; i++) {
      const j = at[i];
      if (held[j]) {
        raw[i] = values[base + j];
        continue;
      }
      let v = w.weigh(hosts[i], spec);
      if (minval !== undefined && v < minval) v = minval;
      if (maxval !== undefined && v > maxval) v = maxval;
      raw[i] = values[base + j] = v;
    }
  }

  /** Every column of `hosts` was filled: their values are held from now on. */
  settle(hosts: HostState[]): void {
    for (let i = 0; i < hosts.length; i++) this.held[hosts[i].index] = 1;
  }
}
