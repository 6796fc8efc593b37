/**
 * The agreement rule of ../shared/nova-reference/compare.py, in TypeScript:
 * the first disagreement between Nova's result and ours, or null.
 */
const TOL = 1e-6;

type Json = Record<string, any>;

function close(a: unknown, b: unknown): boolean {
  const x = Number(a);
  const y = Number(b);
  if (a === null || b === null || Number.isNaN(x) || Number.isNaN(y)) return a === b;
  return Math.abs(x - y) <= TOL * Math.max(1, Math.abs(x), Math.abs(y));
}

/** JSON with object keys sorted, so that key order does not matter (Python's == on dicts). */
function canon(v: unknown): string {
  return JSON.stringify(v, (_k, x) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, (x as Json)[k]]),
        )
      : x,
  );
}

export function firstDisagreement(exp: Json, act: Json): string | null {
  if ((exp.error ?? null) !== (act.error ?? null)) return `error: nova ${exp.error}, project ${act.error}`;
  if ("move" in exp) {
    // A move: the RequestSpec Nova prepared and where the source allocation went, whatever the outcome.
    const em: Json = exp.move ?? {};
    const am: Json = act.move ?? {};
    for (const key of [
      "operation",
      "instance",
      "source",
      "target_host",
      "force",
      "request_spec",
      "source_allocation",
      "skipped_hosts",
    ]) {
      if ((key in em || key in am) && canon(em[key]) !== canon(am[key])) return `move ${key}`;
    }
  }
  if (exp.error !== null && exp.error !== undefined && exp.error !== "NoValidHost") return null;
  if ("placement" in exp) {
    // The Placement path: what Nova asked, got and claimed, exactly.
    const ep: Json = exp.placement ?? {};
    const ap: Json = act.placement ?? {};
    for (const key of ["query", "fallback_query", "matched", "candidates", "claims", "allocation_requests"]) {
      if ((key in ep || key in ap) && canon(ep[key]) !== canon(ap[key])) return `placement ${key}`;
    }
  }
  const er: Json[] = exp.requests ?? [];
  const ar: Json[] = act.requests ?? [];
  if (er.length !== ar.length) return `requests: nova ${er.length}, project ${ar.length}`;
  for (let k = 0; k < er.length; k++) {
    const e = er[k];
    const a = ar[k];
    const ef: Json[] = e.funnel ?? [];
    const af: Json[] = a.funnel ?? [];
    if (JSON.stringify(ef.map((s) => s.filter)) !== JSON.stringify(af.map((s) => s.filter)))
      return `funnel order/index ${e.index}`;
    for (let i = 0; i < ef.length; i++) {
      if (ef[i].in !== af[i].in || ef[i].out !== af[i].out) return `funnel count ${ef[i].filter} (index ${e.index})`;
      if (JSON.stringify([...ef[i].rejected].sort()) !== JSON.stringify([...(af[i].rejected ?? [])].sort()))
        return `funnel rejected ${ef[i].filter} (index ${e.index})`;
      if (
        "rejected_nodes" in ef[i] &&
        JSON.stringify([...ef[i].rejected_nodes].sort()) !== JSON.stringify([...(af[i].rejected_nodes ?? [])].sort())
      )
        return `funnel rejected_nodes ${ef[i].filter} (index ${e.index})`;
    }
    const ew: Json[] = e.weighed ?? [];
    const aw: Json[] = a.weighed ?? [];
    const en = ew.map((w) => w.host);
    const an = aw.map((w) => w.host);
    if (JSON.stringify(en) !== JSON.stringify(an)) {
      return JSON.stringify([...en].sort()) !== JSON.stringify([...an].sort())
        ? "weighed hosts"
        : `weighed order (index ${e.index})`;
    }
    if (ew.some((w) => "node" in w) && JSON.stringify(ew.map((w) => w.node)) !== JSON.stringify(aw.map((w) => w.node)))
      return `weighed nodes (index ${e.index})`;
    for (let i = 0; i < ew.length; i++) {
      if (!close(ew[i].weight, aw[i].weight)) return `weight of ${ew[i].host} (index ${e.index})`;
      const xw: Json = ew[i].weighers ?? {};
      const yw: Json = aw[i].weighers ?? {};
      if (JSON.stringify(Object.keys(xw).sort()) !== JSON.stringify(Object.keys(yw).sort())) return "weighers present";
      for (const name of Object.keys(xw)) {
        for (const key of ["normalized", "multiplier"]) {
          if (!close(xw[name][key], yw[name][key])) return `weigher ${name} ${key} of ${ew[i].host}`;
        }
      }
    }
    if ((e.chosen ?? null) !== (a.chosen ?? null)) return `chosen (index ${e.index})`;
    if ("chosen_node" in e && e.chosen_node !== a.chosen_node) return `chosen node (index ${e.index})`;
  }
  const es = JSON.stringify((exp.selections ?? []).map((s: Json) => [s.host, s.alternates]));
  const as = JSON.stringify((act.selections ?? []).map((s: Json) => [s.host, s.alternates]));
  if (es !== as) return "selections";
  const sels: Json[] = exp.selections ?? [];
  for (let i = 0; i < sels.length; i++)
    for (const key of ["node", "alternate_nodes"])
      if (key in sels[i] && canon(sels[i][key]) !== canon(act.selections[i][key])) return `selection ${key} ${i}`;
  return null;
}
