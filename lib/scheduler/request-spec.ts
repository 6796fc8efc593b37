/**
 * The RequestSpec the filters and weighers see, built once per request
 * (flavor, typed image properties, hints as Nova stores them, the server
 * group resolved with its hosts), so nothing is parsed inside the host loop.
 */
import type { HostState } from "./host-state";
import { buildImageProps, type ImageProps } from "./image-meta";
import type { NovaRelease } from "./releases";
import { stableUuid } from "./nova-uuid";
import { NovaError, pyIntOfJson, pyIter, pyStrAt } from "./python";
import type { InstanceNUMATopology } from "./numa/objects";
import { buildNumaRequest } from "./numa/request";
import type { PciRequest } from "./pci/request";
import type { Destination } from "./moves";
import type { Scenario, ServerGroupPolicy } from "./scenario";

export interface ExtraSpec {
  key: string;
  value: string;
}

export interface InstanceGroup {
  uuid: string;
  name: string;
  policy: ServerGroupPolicy | string;
  /** The raw rules; max_server_per_host is int()-ed on use, as Nova does. */
  rules: Record<string, string>;
  members: Set<string>;
  /** The request's own instances among the members: uuid -> index. */
  requestMembers: Map<string, number>;
  /** Hosts running a member; grows as instances of this request land. */
  hosts: string[];
}

export interface RequestSpec {
  flavor: {
    name: string;
    vcpus: number;
    memoryMb: number;
    rootGb: number;
    ephemeralGb: number;
    swap: number;
    extraSpecs: ExtraSpec[];
    /** Nova's flavorid: the flavor's id, else its name (what a resize compares). */
    flavorId?: string;
  };
  imageId: string;
  /** Glance's name of the image, as Nova's conflict messages print it ("None" when unnamed). */
  imageName: string;
  imageProps: ImageProps;
  /**
   * Image properties newer than Zed's ImageMetaProps (which drops them), as
   * given: hw_virtio_packed_ring, hw_maxphysaddr_mode, hw_maxphysaddr_bits
   * (2024.1), hw_firmware_stateless (2024.2), hw_sound_model (2025.2).
   */
  newerImageProps: ReadonlyMap<string, string>;
  numInstances: number;
  availabilityZone: string | null;
  projectId: string;
  /** scheduler_hints, each a list of strings (Nova's storage form). */
  hints: Map<string, string[]>;
  instanceGroup: InstanceGroup | null;
  /** uuid of the instance being placed (changes per index). */
  instanceUuid: string;
  ignoreHosts: string[];
  forceHosts: string[];
  forceNodes: string[];
  /**
   * The guest NUMA topology (numa_get_constraints), or null. The chosen
   * host's consume step replaces it with the fitted one, as Nova does.
   */
  numaTopology: InstanceNUMATopology | null;
  /** PCI requests from pci_passthrough:alias. */
  pciRequests: PciRequest[];
  /** The instance boots from a volume: no root disk is asked of the host. */
  isBfv?: boolean;
  /** A move's requested_destination (host/node checked by the filters, the cell loaded); null for a boot. */
  requestedDestination?: Destination | null;
}

/** RequestSpec.get_scheduler_hint: a one-item list comes back as its item. */
export function getSchedulerHint(spec: RequestSpec, name: string, dflt?: string): string | string[] | undefined {
  const v = spec.hints.get(name);
  if (v === undefined) return dflt;
  return v.length === 1 ? v[0] : v;
}

/** A hint of instance uuids (same_host, different_host) as a list; [] when absent. */
export function hintUuids(spec: RequestSpec, name: string): string[] {
  const hint = getSchedulerHint(spec, name);
  return !hint ? [] : typeof hint === "string" ? [hint] : hint;
}

const int = pyIntOfJson;

/** A ListOfStringsField(nullable): strings, numbers and booleans as str(); else ValueError. */
function stringList(v: unknown, field: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) throw new NovaError("ValueError", `${field}: a list is required`);
  return v.map((x, i) => {
    if (typeof x === "string") return x;
    if (typeof x === "number" || typeof x === "boolean") return pyStrAt(v, i);
    throw new NovaError("ValueError", `${field}[${i}]: a string is required`);
  });
}

const NEWER_IMAGE_PROPS = [
  "hw_virtio_packed_ring",
  "hw_maxphysaddr_mode",
  "hw_maxphysaddr_bits",
  "hw_firmware_stateless",
  "hw_sound_model",
];

function newerImageProps(properties: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  if (properties === null || typeof properties !== "object") return out;
  for (const key of NEWER_IMAGE_PROPS) if (Object.hasOwn(properties, key)) out.set(key, pyStrAt(properties, key));
  return out;
}

/** The uuid of the request's index-th instance (the Nova reference gives the same). */
export function requestInstanceUuid(index: number): string {
  return stableUuid(`instance-${index}`);
}

export function buildRequestSpec(
  scenario: Scenario,
  hosts: HostState[],
  pci: {
    pciAlias: unknown[];
    release?: { pep440VersionPredicates: boolean; release: NovaRelease; pciAliasRequiresIds: boolean };
  } = { pciAlias: [] },
): RequestSpec {
  const req = scenario.request;
  const f = req.flavor;
  const image = req.image ?? {};
  const extraSpecs = f.extra_specs ?? {};
  const hints = new Map<string, string[]>();
  const rawHints = req.scheduler_hints ?? {};
  for (const [k, v] of Object.entries(rawHints)) {
    hints.set(k, Array.isArray(v) ? v.map((_, i) => pyStrAt(v, i)) : [pyStrAt(rawHints, k)]);
  }
  let instanceGroup: InstanceGroup | null = null;
  const ref = req.server_group;
  if (ref) {
    const g = (scenario.server_groups ?? []).find((sg) => sg.uuid === ref || sg.name === ref);
    if (!g) throw new NovaError("StopIteration", `request.server_group: no server group with uuid or name "${ref}"`);
    const members = new Set(g.members === undefined ? [] : (pyIter(g.members, "server_groups[].members") as string[]));
    const groupHosts: string[] = [];
    for (const h of hosts) {
      for (const u of h.instances) {
        if (members.has(u)) {
          groupHosts.push(h.host);
          break;
        }
      }
    }
    // nova-api adds every instance of the request to the group before it asks
    // the scheduler (compute/api.py _provision_instances: add_members, then
    // members.extend), so the anti-affinity filter and the soft weighers count
    // the ones this request has already placed. They have no host yet.
    const requestMembers = new Map<string, number>();
    const count = int(req.num_instances ?? 1, "request.num_instances");
    for (let i = 0; i < count; i++) {
      const uuid = requestInstanceUuid(i);
      members.add(uuid);
      requestMembers.set(uuid, i);
    }
    const rules: Record<string, string> = {};
    const rawRules = g.rules ?? {};
    for (const k of Object.keys(rawRules)) rules[k] = pyStrAt(rawRules, k);
    instanceGroup = {
      uuid: g.uuid || stableUuid(`sg-${g.name}`),
      name: g.name,
      policy: g.policy,
      rules,
      members,
      requestMembers,
      hosts: groupHosts,
    };
    hints.set("group", [instanceGroup.uuid]);
  }
  const spec: RequestSpec = {
    flavor: {
      name: f.name,
      vcpus: int(f.vcpus, "request.flavor.vcpus"),
      memoryMb: int(f.memory_mb, "request.flavor.memory_mb"),
      rootGb: int(f.root_gb ?? 0, "request.flavor.root_gb"),
      ephemeralGb: int(f.ephemeral_gb ?? 0, "request.flavor.ephemeral_gb"),
      swap: int(f.swap ?? 0, "request.flavor.swap"),
      extraSpecs: Object.keys(extraSpecs).map((key) => ({ key, value: pyStrAt(extraSpecs, key) })),
      flavorId: f.id === undefined ? f.name : pyStrAt(f as unknown as Record<string, unknown>, "id"),
    },
    imageId: image.id ?? stableUuid("image"),
    imageName: image.name ?? "None",
    imageProps: buildImageProps(image.properties ?? {}, {
      pep440VersionPredicates: pci.release?.pep440VersionPredicates,
      release: pci.release?.release,
    }),
    newerImageProps: newerImageProps(image.properties ?? {}),
    numInstances: int(req.num_instances ?? 1, "request.num_instances"),
    availabilityZone: req.availability_zone ?? null,
    projectId: req.project_id ?? "project",
    hints,
    instanceGroup,
    instanceUuid: requestInstanceUuid(0),
    ignoreHosts: stringList(req.ignore_hosts, "request.ignore_hosts"),
    forceHosts: stringList(req.force_hosts, "request.force_hosts"),
    forceNodes: stringList(req.force_nodes, "request.force_nodes"),
    numaTopology: null,
    pciRequests: [],
    isBfv: Boolean(req.is_bfv),
    requestedDestination: null,
  };
  // As nova-api builds a boot's: NUMA constraints, PCI NUMA policy, PCI requests.
  Object.assign(
    spec,
    buildNumaRequest(spec, image.properties ?? {}, pci.pciAlias, pci.release?.pciAliasRequiresIds ?? false),
  );
  return spec;
}
