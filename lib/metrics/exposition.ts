/**
 * Prometheus' text exposition format (version 0.0.4): one `# HELP` and one
 * `# TYPE` per family, then its samples; label values escaped (\\, \", \n).
 * The body that depends only on the snapshot is rendered once per snapshot
 * (renderSnapshot); what changes per scrape (ages) is rendered per scrape
 * (renderScrapeHeader) and put before it.
 */
import type { CapacityMetrics } from "./compute";
import type { SyncStats } from "./providers";

export const CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

const escapeLabel = (v: string) => v.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n");
const escapeHelp = (v: string) => v.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");

function num(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Number.POSITIVE_INFINITY) return "+Inf";
  if (v === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(v);
}

/** Appends one metric family to `out`. */
export class Family {
  private lines: string[] = [];
  constructor(
    readonly name: string,
    readonly type: "gauge" | "counter",
    readonly help: string,
  ) {}
  add(labels: Record<string, string>, value: number): this {
    const keys = Object.keys(labels);
    const l = keys.length ? `{${keys.map((k) => `${k}="${escapeLabel(labels[k])}"`).join(",")}}` : "";
    this.lines.push(`${this.name}${l} ${num(value)}`);
    return this;
  }
  render(): string {
    return `# HELP ${this.name} ${escapeHelp(this.help)}\n# TYPE ${this.name} ${this.type}\n${this.lines.join("\n")}${this.lines.length ? "\n" : ""}`;
  }
}

export interface RunwaySample {
  flavor: string;
  window: "30d" | "90d";
  az: string;
  days: number;
  conservativeDays: number;
}

/** The families that depend only on the snapshot: rendered once per snapshot. */
export function renderSnapshot(m: CapacityMetrics, runway: RunwaySample[] | null): string {
  // os-capacity's name ends in _total, which Prometheus reserves for counters (promtool's lint
  // refuses a gauge so named): declared a counter to keep the name, and the HELP says it is not one.
  const total = new Family(
    "openstack_free_capacity_by_flavor_total",
    "counter",
    "Free capacity if you fill the cloud full of each flavor (os-capacity's name; declared a counter only for its _total suffix: it is a level that goes down as the cloud fills, never rate() it). Schedscope: the exact fill of that flavor alone, boot by boot through Nova's scheduler as configured (every filter, NUMA, PCI, server groups, Placement's max_unit), the count npm run -s capacity gives; at most 1000000.",
  );
  const perHv = new Family(
    "openstack_free_capacity_hypervisor_by_flavor",
    "gauge",
    "Free capacity for each hypervisor if you fill remaining space full of each flavor (os-capacity's name). Schedscope: the exact fill's boots on each host; hosts with none are left out; the series of a flavor sum to openstack_free_capacity_by_flavor_total. az_aggregate: the AZ an aggregate gives the host (empty when none); project_aggregate: its aggregate with filter_tenant_id, or multiple.",
  );
  const limit = new Family(
    "schedscope_free_capacity_limit_reached",
    "gauge",
    "1 when the fill of this flavor stopped at its limit of 1000000 boots (the count is then a floor), else 0.",
  );
  for (const f of m.flavors) {
    total.add({ flavor_name: f.flavor, public: f.public }, f.count);
    limit.add({ flavor_name: f.flavor }, f.limitReached ? 1 : 0);
  }
  // The fill counts boots per service host; a host with several nodes is one series (its first node's labels).
  const seen = new Set<string>();
  for (const h of m.hypervisors) {
    if (seen.has(h.host)) continue;
    seen.add(h.host);
    for (const f of m.flavors) {
      const n = f.perHost.get(h.host) ?? 0;
      if (!n) continue;
      perHv.add(
        {
          hypervisor: h.host,
          flavor_name: f.flavor,
          az_aggregate: h.azAggregate,
          project_aggregate: h.projectAggregate,
        },
        n,
      );
    }
  }
  const allocated = new Family(
    "openstack_hypervisor_placement_allocated",
    "gauge",
    "Currently allocated resource for each provider in placement (os-capacity's name): the compute node provider's usage per resource class.",
  );
  const allocatable = new Family(
    "openstack_hypervisor_placement_allocatable_capacity",
    "gauge",
    "The total allocatable resource in the placement inventory (os-capacity's name). Schedscope: Placement's own capacity, (total - reserved) * allocation_ratio (os-capacity computes int(total * allocation_ratio) - reserved).",
  );
  for (const h of m.hypervisors) {
    for (const [rc, v] of Object.entries(h.allocated)) allocated.add({ hypervisor: h.hypervisor, resource: rc }, v);
    for (const [rc, v] of Object.entries(h.allocatable)) allocatable.add({ hypervisor: h.hypervisor, resource: rc }, v);
  }
  const stranded = new Family(
    "schedscope_stranded_capacity",
    "gauge",
    "Free Placement capacity ((total - reserved) * allocation_ratio - used) on enabled, up hosts where the exact fill of every flavor places nothing: capacity no flavor can use.",
  );
  for (const [rc, v] of Object.entries(m.stranded)) stranded.add({ resource: rc }, v);
  const out = [total, perHv, limit, allocated, allocatable, stranded].map((f) => f.render());
  if (m.hostLoss) {
    const survives = new Family(
      "schedscope_az_survives_host_loss",
      "gauge",
      "1 when the availability zone survives the loss of any one of its hosts: every instance of the lost host is evacuated by Nova's scheduler (lib/maintenance/lose-hosts.ts), none stranded; else 0.",
    );
    const worst = new Family(
      "schedscope_az_host_loss_stranded_instances",
      "gauge",
      "Instances stranded by the worst single-host loss in the availability zone, of the hosts tried (0 when it survives).",
    );
    const checked = new Family(
      "schedscope_az_host_loss_hosts_checked_ratio",
      "gauge",
      "Share of the AZ's hosts whose loss was tried (the sweep has a time budget; survival is reported only once every host was tried, or once one loss strands an instance).",
    );
    for (const z of m.hostLoss) {
      if (z.survives !== null) {
        survives.add({ az: z.az }, z.survives ? 1 : 0);
        worst.add({ az: z.az }, z.worstStranded);
      }
      checked.add({ az: z.az }, z.hosts ? Math.round((z.checked / z.hosts) * 1e4) / 1e4 : 1);
    }
    out.push(survives.render(), worst.render(), checked.render());
  }
  if (runway) {
    const days = new Family(
      "schedscope_runway_seconds",
      "gauge",
      "Seconds (Grafana shows days) until the flavor no longer fits in the AZ at the trend of allocation (least-squares line over the window); band=trend is the line, band=conservative the one-sided 95% upper prediction bound. Absent under 7 days of history or when allocation is not growing.",
    );
    for (const r of runway) {
      days.add({ flavor_name: r.flavor, az: r.az, window: r.window, band: "trend" }, Math.round(r.days * 86_400));
      days.add(
        { flavor_name: r.flavor, az: r.az, window: r.window, band: "conservative" },
        Math.round(r.conservativeDays * 86_400),
      );
    }
    out.push(days.render());
  }
  return out.join("");
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface ScrapeFacts {
  /** Seconds since the body was computed. */
  cacheAgeSeconds: number;
  /** 1 when the cloud changed since and a recompute is under way or queued. */
  stale: boolean;
  /** 1 when every family is computed (a first scrape may come before). */
  complete: boolean;
  revision: number;
  computeSeconds: number | null;
  snapshotAgeSeconds: number | null;
  sync: SyncStats | null;
  historyDays: number;
}

/** The per-scrape families: small, rendered on every scrape. */
export function renderScrapeHeader(s: ScrapeFacts): string {
  const fams: Family[] = [
    new Family(
      "schedscope_metrics_age_seconds",
      "gauge",
      "Seconds since these metrics were computed from the cloud snapshot (they are computed once per snapshot, in the background).",
    ).add({}, round2(s.cacheAgeSeconds)),
    new Family(
      "schedscope_metrics_stale",
      "gauge",
      "1 when the cloud changed since these metrics were computed and a recompute is under way.",
    ).add({}, s.stale ? 1 : 0),
    new Family(
      "schedscope_metrics_complete",
      "gauge",
      "1 when every flavor (and the host-loss sweep) is computed for this snapshot; 0 while the first computation is still under way.",
    ).add({}, s.complete ? 1 : 0),
    new Family("schedscope_cloud_revision", "gauge", "The cloud's change counter these metrics were computed at.").add(
      {},
      s.revision,
    ),
    new Family(
      "schedscope_history_seconds",
      "gauge",
      "Snapshot history runway is computed from, in seconds (runway needs at least 7 days).",
    ).add({}, Math.round(s.historyDays * 86_400)),
  ];
  if (s.computeSeconds !== null)
    fams.push(
      new Family(
        "schedscope_metrics_compute_seconds",
        "gauge",
        "How long computing these metrics took (every flavor's exact fill).",
      ).add({}, round2(s.computeSeconds)),
    );
  if (s.snapshotAgeSeconds !== null)
    fams.push(
      new Family(
        "schedscope_snapshot_age_seconds",
        "gauge",
        "Seconds since the newest snapshot of the real cloud was taken.",
      ).add({}, round2(s.snapshotAgeSeconds)),
    );
  if (s.sync) {
    if (s.sync.lastDurationSeconds !== null)
      fams.push(
        new Family("schedscope_sync_duration_seconds", "gauge", "Duration of the last sync with the cloud's APIs.").add(
          {},
          round2(s.sync.lastDurationSeconds),
        ),
      );
    fams.push(
      new Family("schedscope_sync_failures_total", "counter", "Syncs with the cloud's APIs that failed.").add(
        {},
        s.sync.failuresTotal,
      ),
      new Family("schedscope_syncs_total", "counter", "Syncs with the cloud's APIs attempted.").add(
        {},
        s.sync.syncsTotal,
      ),
    );
    if (s.sync.predictions)
      fams.push(
        new Family(
          "schedscope_prediction_agreement_ratio",
          "gauge",
          "Share of Schedscope's predictions that agreed with the host Nova then chose.",
        ).add({}, s.sync.predictions.compared ? s.sync.predictions.agreed / s.sync.predictions.compared : 1),
        new Family(
          "schedscope_predictions_compared_total",
          "counter",
          "Predictions compared with what Nova then did.",
        ).add({}, s.sync.predictions.compared),
      );
  }
  return fams.map((f) => f.render()).join("");
}
