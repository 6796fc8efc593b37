/**
 * Predictions against reality: every server a snapshot has that the one
 * before did not is set beside where the engine would have put it on that
 * previous snapshot, its request rebuilt from the server's flavor, image,
 * server group and availability zone. Servers go in creation order (the
 * API's `created`; uuid order when the source gives no time), and each one
 * then lands where Nova put it, so the next prediction sees what Nova saw
 * (an anti-affinity group's third member sees the first two).
 *
 * A difference names its likely cause: the chosen host did not exist or
 * changed in between; host_subset_size > 1 (Nova picks at random among the
 * N best, with the chosen host's probability); a tie on weight; a filter or
 * weigher the engine does not simulate; or the weights as we computed them.
 */
import { processEngine } from "@/lib/core/process-engine";
import type { ExportedCloud } from "@/lib/cloud/scenario-io";
import type { Scenario, ScenarioConfig, ScenarioHost, ScenarioRequest } from "@/lib/scheduler/scenario";

type Obj = Record<string, unknown>;

export interface Prediction {
  uuid: string;
  name?: string;
  created?: string;
  flavor: string | null;
  image?: string;
  server_group?: string;
  availability_zone?: string;
  /** the host Nova chose (the newer snapshot), null: on no host */
  chosen: string | null;
  /** the host the engine chose on the previous snapshot, null: none (see error) */
  predicted: string | null;
  agree: boolean;
  /** other hosts with exactly the predicted host's weight (a tie: Nova keeps the first) */
  tiedWith?: string[];
  /** with host_subset_size > 1: Nova's chance of picking the host it picked, as we weigh */
  probability?: number;
  /** the engine's error (e.g. NoValidHost) or why no request could be rebuilt */
  error?: string;
  /** words: "predicted X, Nova chose X", or the difference and its likely cause */
  message: string;
}

export interface PredictionReport {
  snapshot: number;
  previous: number | null;
  profile: string | null;
  predictions: Prediction[];
  agreed: number;
  /** predictions that could be compared (a request rebuilt, Nova placed it) */
  compared: number;
  notes: string[];
}

const EPS = 1e-9;

function clone<T>(v: T): T {
  return structuredClone(v);
}

/** Where each instance is in `doc` (service host name), and its group (uuid). */
function whereIs(doc: ExportedCloud) {
  const host = new Map<string, ScenarioHost>();
  for (const h of doc.hosts) for (const u of h.instances ?? []) host.set(u, h);
  const group = new Map<string, Obj>();
  for (const g of (doc.server_groups ?? []) as unknown as Obj[])
    for (const u of (g.members as string[] | undefined) ?? []) group.set(u, g);
  return { host, group };
}

function sizeOf(f: Obj): { vcpus: number; ram: number; disk: number } {
  return {
    vcpus: Number(f.vcpus ?? 0),
    ram: Number(f.memory_mb ?? 0),
    disk: Number(f.root_gb ?? 0) + Number(f.ephemeral_gb ?? 0),
  };
}

/** Put the server where Nova put it, so the next prediction starts from what Nova then saw. */
function land(scenario: Scenario, hostName: string, node: string | undefined, uuid: string, flavor: Obj | undefined) {
  const h =
    scenario.hosts.find((x) => x.name === hostName && (node === undefined || (x.node ?? x.name) === node)) ??
    scenario.hosts.find((x) => x.name === hostName);
  if (!h) return;
  h.instances = [...(h.instances ?? []), uuid];
  h.num_instances = (h.num_instances ?? 0) + 1;
  if (flavor) {
    const s = sizeOf(flavor);
    h.vcpus_used = (h.vcpus_used ?? 0) + s.vcpus;
    h.memory_mb_used = (h.memory_mb_used ?? 0) + s.ram;
    h.local_gb_used = (h.local_gb_used ?? 0) + s.disk;
  }
}

/** The hosts' state without their instance lists (what "changed in between" compares). */
function stateOf(h: ScenarioHost | undefined): string {
  if (!h) return "";
  const { instances: _i, num_instances: _n, vcpus_used: _v, memory_mb_used: _m, local_gb_used: _l, ...rest } = h;
  return JSON.stringify(rest);
}

export function predict(
  previous: ExportedCloud,
  current: ExportedCloud,
  ids: { snapshot: number; previous: number | null; profile: string | null },
): PredictionReport {
  const engine = processEngine();
  const before = whereIs(previous);
  const after = whereIs(current);
  const attrs = new Map(((current.instances ?? []) as Obj[]).map((i) => [String(i.uuid), i]));
  const flavors = new Map(((current.flavors ?? []) as Obj[]).map((f) => [String(f.name), f]));
  const images = new Map(((current.images ?? []) as Obj[]).map((i) => [String(i.id), i]));
  const defaultAz = ((previous.config as Obj | undefined)?.default_availability_zone as string | undefined) ?? "nova";
  const notes: string[] = [];

  const fresh = [...after.host.keys(), ...attrs.keys()].filter(
    (u, i, all) => all.indexOf(u) === i && !before.host.has(u) && !before.group.has(u) && !hasInstance(previous, u),
  );
  const untimed = fresh.filter((u) => attrs.get(u)?.created === undefined).length;
  if (untimed)
    notes.push(
      `${untimed} server(s) have no creation time (the source gives none): they are taken in uuid order, after the timed ones`,
    );
  fresh.sort((a, b) => {
    const ca = attrs.get(a)?.created as string | undefined;
    const cb = attrs.get(b)?.created as string | undefined;
    if (ca && cb && ca !== cb) return Date.parse(ca) - Date.parse(cb);
    if (ca && !cb) return -1;
    if (!ca && cb) return 1;
    return a < b ? -1 : a > b ? 1 : 0;
  });

  // the engine's input: the previous snapshot, its profile, and what it does not simulate passed and named
  const { flavors: _f, images: _im, instances: _in, request: _r, ...cloud } = clone(previous) as ExportedCloud;
  const working = cloud as unknown as Scenario;
  working.config = { ...(working.config ?? {}), not_simulated: "pass" } as ScenarioConfig;
  working.server_groups = working.server_groups ?? [];
  const subsetSize = Number((working.config as Obj).host_subset_size ?? 1);
  const prevHosts = new Map(previous.hosts.map((h) => [h.name, h]));
  const curHosts = new Map(current.hosts.map((h) => [h.name, h]));

  const predictions: Prediction[] = [];
  for (const uuid of fresh) {
    const a = attrs.get(uuid) ?? {};
    const chosenHost = after.host.get(uuid);
    const chosen = chosenHost?.name ?? null;
    const flavor = typeof a.flavor === "string" ? flavors.get(a.flavor) : undefined;
    const group = after.group.get(uuid);
    const p: Prediction = {
      uuid,
      ...(typeof a.name === "string" ? { name: a.name } : {}),
      ...(typeof a.created === "string" ? { created: a.created } : {}),
      flavor: flavor ? String(flavor.name) : null,
      chosen,
      predicted: null,
      agree: false,
      message: "",
    };
    if (typeof a.image === "string") p.image = a.image;
    if (group) p.server_group = String(group.name ?? group.uuid);
    const az = typeof a.availability_zone === "string" ? a.availability_zone : undefined;
    // Zed's API does not say whether an AZ was asked for; the default AZ is what no AZ gets anyway
    if (az && az !== defaultAz) p.availability_zone = az;

    if (!flavor) {
      p.error = "no flavor (deleted, private or not reported): the request cannot be rebuilt";
      p.message = `not predicted: ${p.error}`;
      predictions.push(p);
      continue;
    }
    const request: ScenarioRequest = {
      flavor: {
        name: String(flavor.name),
        ...(flavor.id !== undefined ? { id: String(flavor.id) } : {}),
        vcpus: Number(flavor.vcpus),
        memory_mb: Number(flavor.memory_mb),
        root_gb: Number(flavor.root_gb ?? 0),
        ephemeral_gb: Number(flavor.ephemeral_gb ?? 0),
        swap: Number(flavor.swap ?? 0),
        extra_specs: (flavor.extra_specs as Record<string, string> | undefined) ?? {},
      },
      num_instances: 1,
    };
    const im = p.image ? images.get(p.image) : undefined;
    if (im)
      request.image = {
        id: String(im.id),
        ...(im.name !== undefined ? { name: String(im.name) } : {}),
        ...(im.disk_format !== undefined ? { disk_format: String(im.disk_format) } : {}),
        properties: (im.properties as Record<string, unknown> | undefined) ?? {},
      } as ScenarioRequest["image"];
    if (p.availability_zone) request.availability_zone = p.availability_zone;
    if (typeof a.project_id === "string") request.project_id = a.project_id;
    if (group) {
      const gu = String(group.uuid);
      let g = working.server_groups.find((x) => x.uuid === gu);
      if (!g) {
        // a group made since: as it was before this server joined (members already placed by Nova)
        g = { ...(clone(group) as object), members: [] } as unknown as (typeof working.server_groups)[number];
        working.server_groups.push(g);
      }
      request.server_group = gu;
    }

    const run = engine.schedule({ ...working, request }, { now: () => performance.now() });
    const result = engine.toResult(run);
    const weighed = result.requests[0]?.weighed ?? [];
    p.predicted = result.selections[0]?.host ?? null;
    if (result.error) p.error = result.message ? `${result.error}: ${result.message}` : result.error;
    const top = weighed[0];
    if (top) {
      const tied = weighed
        .filter((w) => w.host !== top.host && Math.abs(w.weight - top.weight) < EPS)
        .map((w) => w.host);
      if (tied.length) p.tiedWith = tied;
    }
    p.agree = chosen !== null && p.predicted === chosen;
    p.message = explain(p, {
      weighed,
      subsetSize,
      funnel: result.requests[0]?.funnel ?? [],
      existedBefore: chosen !== null && prevHosts.has(chosen),
      changedBetween: chosen !== null && stateOf(prevHosts.get(chosen)) !== stateOf(curHosts.get(chosen)),
      notSimulated: result.not_checked,
    });
    if (subsetSize > 1 && chosen !== null) {
      const rank = weighed.findIndex((w) => w.host === chosen);
      const n = Math.min(subsetSize, weighed.length);
      p.probability = rank >= 0 && rank < n ? 1 / n : 0;
    }
    predictions.push(p);

    // what Nova did is what the next server saw
    if (chosenHost) land(working, chosenHost.name, chosenHost.node, uuid, flavor);
    if (group) working.server_groups.find((x) => x.uuid === String(group.uuid))?.members?.push(uuid);
  }
  const comparable = predictions.filter((p) => p.chosen !== null && !p.error?.startsWith("no flavor"));
  return {
    snapshot: ids.snapshot,
    previous: ids.previous,
    profile: ids.profile,
    predictions,
    agreed: comparable.filter((p) => p.agree).length,
    compared: comparable.length,
    notes,
  };
}

function hasInstance(doc: ExportedCloud, uuid: string): boolean {
  return ((doc.instances ?? []) as Obj[]).some((i) => i.uuid === uuid);
}

function explain(
  p: Prediction,
  x: {
    weighed: { host: string; weight: number }[];
    subsetSize: number;
    funnel: { filter: string; rejected: string[]; reasons: string[] }[];
    existedBefore: boolean;
    changedBetween: boolean;
    notSimulated?: string;
  },
): string {
  const predicted = p.predicted ?? "no host";
  const chosen = p.chosen ?? "no host";
  const tie = p.tiedWith?.length ? ` (tied on weight with ${p.tiedWith.join(", ")}: Nova keeps the first)` : "";
  if (p.agree) return `predicted ${predicted}, Nova chose ${chosen}${tie}`;
  const head = `predicted ${predicted}, Nova chose ${chosen}`;
  if (p.chosen === null) return `${head}: the server is on no host now (failed, shelved or its host is gone)`;
  if (!x.existedBefore) return `${head}: ${chosen} was not in the previous snapshot (the cloud changed in between)`;
  const rejected = x.funnel.find((f) => f.rejected.includes(chosen));
  if (rejected) {
    const why = rejected.reasons[rejected.rejected.indexOf(chosen)] ?? "";
    const cause = x.changedBetween
      ? `the cloud changed in between (${chosen} differs in the newer snapshot)`
      : "a filter we don't simulate, or a state the snapshot does not hold";
    return `${head}: our ${rejected.filter} removed ${chosen}${why ? ` (${why})` : ""}; likely cause: ${cause}`;
  }
  const rank = x.weighed.findIndex((w) => w.host === chosen);
  if (x.subsetSize > 1 && rank >= 0 && rank < x.subsetSize) {
    const n = Math.min(x.subsetSize, x.weighed.length);
    return `${head}: host_subset_size ${x.subsetSize}: Nova chose at random among the ${n} best, ${chosen} (ranked ${rank + 1}) with probability 1/${n}`;
  }
  if (p.tiedWith?.includes(chosen)) return `${head}: they tie on weight; Nova's order among equal weights decided`;
  if (x.changedBetween) return `${head}: the cloud changed in between (${chosen} differs in the newer snapshot)`;
  const w = x.weighed[rank]?.weight;
  const top = x.weighed[0]?.weight;
  return `${head}: ${chosen} ranked ${rank + 1} (weight ${w?.toFixed(4)} against ${top?.toFixed(4)})${x.notSimulated ? `; ${x.notSimulated}` : "; a weigher or filter we don't simulate, or usage the snapshot does not show"}`;
}
