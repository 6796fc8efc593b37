import type { AggregateView } from "./host-state";

/**
 * A filter's answer that depends only on the host's aggregates, worked out
 * once per distinct set of aggregates (AggregateView) in a request instead
 * of once per host: 10,000 hosts typically share a dozen such sets.
 * Call reset() in the filter's prepare(): views are numbered per request.
 */
export class PerAggregateView<T> {
  private answers: Array<{ value: T } | undefined> = [];

  constructor(private readonly compute: (view: AggregateView) => T) {}

  reset(): void {
    this.answers = [];
  }

  get(view: AggregateView): T {
    let a = this.answers[view.id];
    // Boxed, so that an answer of undefined or null is remembered too.
    if (a === undefined) this.answers[view.id] = a = { value: this.compute(view) };
    return a.value;
  }
}
