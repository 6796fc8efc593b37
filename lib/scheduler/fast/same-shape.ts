/**
 * Every filter (and every weigher) as an object of one shape: the host loops
 * call them in turn, and objects of one shape keep those call sites from
 * being recompiled for each new filter they meet.
 */
import type { HostFilter, HostWeigher } from "../plugin";

export function sameShapeFilter(f: HostFilter): HostFilter {
  return {
    name: f.name,
    runOncePerRequest: f.runOncePerRequest,
    prepare: f.prepare,
    passesEveryHost: f.passesEveryHost,
    check: f.check,
  };
}

export function sameShapeWeigher(w: HostWeigher): HostWeigher {
  return {
    name: w.name,
    minval: w.minval,
    maxval: w.maxval,
    weigh: w.weigh,
    sameForEveryHost: w.sameForEveryHost,
    multiplier: w.multiplier,
  };
}
