/**
 * A kept cloud's providers as columns: per resource class, each provider's
 * capacity, units and usage in typed arrays, built with the snapshot's
 * providers (before any request's clock), so that a query no request has
 * asked yet checks every provider with array reads instead of Map lookups.
 * `fits` answers only "compiledReason would return null": any other answer
 * sends the caller to compiledReason (candidates.ts), which says why, so a
 * reason is always Placement's own words. Usage is read again from the
 * provider whenever its usageVersion has moved (a claim, a restore).
 *
 * A query's shape is candidates.ts's, restated so that this file imports
 * neither it nor providers.ts (they import it); providers.ts takes its
 * Inventory from here.
 */

/** A resource provider's inventory of one class, as Placement keeps it. */
export interface Inventory {
  total: number;
  reserved: number;
  minUnit: number;
  maxUnit: number;
  stepSize: number;
  allocationRatio: number;
}

export interface ColumnProvider {
  readonly index: number;
  readonly inventories: Map<string, Inventory>;
  readonly used: Map<string, number>;
  readonly usageVersion: number;
  readonly traits: ReadonlySet<string>;
  readonly aggregates: ReadonlySet<string>;
}

/** candidates.ts's CompiledRequest, as far as a fit reads it. */
export interface FitQuery {
  rootForbidden: string[];
  rootRequired: string[];
  groups: Array<{
    inTree: string | null;
    aggregates: string[][];
    forbiddenAggregates: string[];
    required: string[];
    forbidden: string[];
    resources: Array<[string, number]>;
  }>;
  isolated: number;
  merged: Array<[string, number]>;
}

/** A query with its resource classes as column numbers (-1: no provider has that class). */
interface Plan {
  groups: Array<{
    aggregates: string[][];
    forbiddenAggregates: string[];
    required: string[];
    forbidden: string[];
    columns: Int32Array;
    amounts: Float64Array;
  }>;
  mergedColumns: Int32Array;
  mergedAmounts: Float64Array;
}

export class ProviderColumns {
  private readonly column = new Map<string, number>();
  /** Per class: capacity ((total − reserved) × ratio; NaN where the provider has no inventory of it). */
  private readonly capacity: Float64Array[] = [];
  private readonly minUnit: Float64Array[] = [];
  private readonly maxUnit: Float64Array[] = [];
  private readonly stepSize: Float64Array[] = [];
  private readonly used: Float64Array[] = [];
  private readonly classes: string[] = [];
  /** The usageVersion each provider's usage row was read at. */
  private readonly versions: Float64Array;

  constructor(private readonly providers: readonly ColumnProvider[]) {
    const n = providers.length;
    this.versions = new Float64Array(n);
    for (const p of providers)
      for (const rc of p.inventories.keys())
        if (!this.column.has(rc)) {
          this.column.set(rc, this.classes.length);
          this.classes.push(rc);
          this.capacity.push(new Float64Array(n).fill(Number.NaN));
          this.minUnit.push(new Float64Array(n));
          this.maxUnit.push(new Float64Array(n));
          this.stepSize.push(new Float64Array(n));
          this.used.push(new Float64Array(n));
        }
    for (let i = 0; i < n; i++) {
      for (const [rc, inv] of providers[i].inventories) {
        const k = this.column.get(rc)!;
        this.capacity[k][i] = (inv.total - inv.reserved) * inv.allocationRatio;
        this.minUnit[k][i] = inv.minUnit;
        this.maxUnit[k][i] = inv.maxUnit;
        this.stepSize[k][i] = inv.stepSize;
      }
      this.readUsage(i);
    }
  }

  private readUsage(i: number): void {
    const p = this.providers[i];
    for (let k = 0; k < this.classes.length; k++) this.used[k][i] = p.used.get(this.classes[k]) ?? 0;
    this.versions[i] = p.usageVersion;
  }

  /** The query's plan, or null where a group is pinned to a tree (in_tree: the reason path is as fast). */
  plan(q: FitQuery): Plan | null {
    if (q.isolated) return null;
    const col = (rc: string) => this.column.get(rc) ?? -1;
    const groups: Plan["groups"] = [];
    for (const g of q.groups) {
      if (g.inTree !== null) return null;
      groups.push({
        aggregates: g.aggregates,
        forbiddenAggregates: g.forbiddenAggregates,
        required: g.required,
        forbidden: g.forbidden,
        columns: Int32Array.from(g.resources, ([rc]) => col(rc)),
        amounts: Float64Array.from(g.resources, ([, n]) => n),
      });
    }
    return {
      groups,
      mergedColumns: Int32Array.from(q.merged, ([rc]) => col(rc)),
      mergedAmounts: Float64Array.from(q.merged, ([, n]) => n),
    };
  }

  /** True only where compiledReason(p, q) is null; false: ask compiledReason. */
  fits(p: ColumnProvider, q: FitQuery, plan: Plan): boolean {
    const i = p.index;
    if (this.versions[i] !== p.usageVersion) this.readUsage(i);
    for (let t = 0; t < q.rootForbidden.length; t++) if (p.traits.has(q.rootForbidden[t])) return false;
    for (let t = 0; t < q.rootRequired.length; t++) if (!p.traits.has(q.rootRequired[t])) return false;
    for (let gi = 0; gi < plan.groups.length; gi++) {
      const g = plan.groups[gi];
      for (let a = 0; a < g.aggregates.length; a++) if (!memberOfAny(p, g.aggregates[a])) return false;
      for (let a = 0; a < g.forbiddenAggregates.length; a++)
        if (p.aggregates.has(g.forbiddenAggregates[a])) return false;
      for (let t = 0; t < g.required.length; t++) if (!p.traits.has(g.required[t])) return false;
      for (let t = 0; t < g.forbidden.length; t++) if (p.traits.has(g.forbidden[t])) return false;
      for (let r = 0; r < g.columns.length; r++) {
        const k = g.columns[r];
        if (k < 0) return false;
        const cap = this.capacity[k][i];
        const amount = g.amounts[r];
        // NaN (no inventory) fails every comparison: the negations make it a refusal
        if (!(this.used[k][i] + amount <= cap)) return false;
        if (amount < this.minUnit[k][i] || amount > this.maxUnit[k][i] || amount % this.stepSize[k][i] !== 0)
          return false;
      }
    }
    // the groups' amounts together, against Placement's integer capacity
    for (let r = 0; r < plan.mergedColumns.length; r++) {
      const k = plan.mergedColumns[r];
      const amount = plan.mergedAmounts[r];
      if (this.used[k][i] + amount > Math.trunc(this.capacity[k][i])) return false;
      if (amount > this.maxUnit[k][i]) return false;
    }
    return true;
  }
}

function memberOfAny(p: ColumnProvider, aggregates: string[]): boolean {
  for (let i = 0; i < aggregates.length; i++) if (p.aggregates.has(aggregates[i])) return true;
  return false;
}
