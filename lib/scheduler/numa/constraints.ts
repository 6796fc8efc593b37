/**
 * hardware.numa_get_constraints and get_pci_numa_policy_constraint: the
 * guest NUMA topology a boot asks for, from flavor extra specs and image
 * properties, with Nova's validation errors (by exception class name).
 */
import type { ImageProps } from "../image-meta";
import { NovaError, type PyValue, pyInt, pyStrip } from "../python";
import { parseCpuSpec } from "./cpu-spec";
import {
  type CpuPolicy,
  type CpuThreadPolicy,
  type InstanceNUMACell,
  type InstanceNUMATopology,
  MEMPAGES_ANY,
  MEMPAGES_LARGE,
  MEMPAGES_SMALL,
} from "./objects";
import { PySet } from "./pyset";

export interface FlavorView {
  name: string;
  vcpus: number;
  memoryMb: number;
  /** extra_specs in their order, values as str(). */
  extraSpecs: Map<string, string>;
}

const CPU_POLICIES = ["dedicated", "shared", "mixed"];
const THREAD_POLICIES = ["prefer", "isolate", "require"];
const EMULATOR_POLICIES = ["share", "isolate"];
const PCI_NUMA_POLICIES = ["required", "legacy", "preferred", "socket"];
const NUMA_NODES_MAX = 128;
const TRUE_STRINGS = new Set(["1", "t", "true", "on", "y", "yes"]);

const fail = (name: string, message: string): never => {
  throw new NovaError(name, message);
};

/** Python truthiness of what a flavor or image gives here (str, int, bool, list). */
function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  return true;
}

/** strutils.bool_from_string(strict=False). */
function boolFromString(v: PyValue | undefined): boolean {
  if (typeof v === "boolean") return v;
  if (v === undefined || v === null) return false;
  return TRUE_STRINGS.has(pyStrip(String(v)).toLowerCase());
}

/** _get_flavor_image_meta: (extra_specs['hw:KEY'], image.properties['hw_KEY']). */
function flavorImage(key: string, flavor: FlavorView, image: ImageProps): [string | undefined, PyValue | undefined] {
  return [flavor.extraSpecs.get(`hw:${key}`), image.get(`hw_${key}`) ?? undefined];
}

/**
 * The flavor's and the image's value of a policy, each refused with `error`
 * when set to something outside `allowed` (the fields' enum coercion).
 */
function flavorImagePolicy(
  key: string,
  allowed: readonly string[],
  error: string,
  flavor: FlavorView,
  image: ImageProps,
): [string | undefined, PyValue | undefined] {
  const [fp, ip] = flavorImage(key, flavor, image);
  if (fp && !allowed.includes(fp)) fail(error, `hw:${key}=${fp} is not one of ${allowed}`);
  if (truthy(ip) && !allowed.includes(String(ip))) fail(error, `hw_${key}=${ip} is not one of ${allowed}`);
  return [fp, ip];
}

function cpuPolicyConstraint(flavor: FlavorView, image: ImageProps): CpuPolicy {
  const [fp, ip] = flavorImagePolicy("cpu_policy", CPU_POLICIES, "InvalidCPUAllocationPolicy", flavor, image);
  if (fp === "dedicated") return fp;
  if (fp === "mixed") {
    if (ip === "dedicated")
      fail("ImageCPUPinningForbidden", "image hw_cpu_policy=dedicated conflicts with flavor mixed");
    return fp;
  }
  if (fp === "shared") {
    if (ip === "mixed" || ip === "dedicated")
      fail("ImageCPUPinningForbidden", `image hw_cpu_policy=${ip} conflicts with flavor shared`);
    return fp;
  }
  return CPU_POLICIES.includes(ip as string) ? (ip as CpuPolicy) : null;
}

function cpuThreadPolicyConstraint(flavor: FlavorView, image: ImageProps): CpuThreadPolicy {
  const [fp, ip] = flavorImagePolicy(
    "cpu_thread_policy",
    THREAD_POLICIES,
    "InvalidCPUThreadAllocationPolicy",
    flavor,
    image,
  );
  if (fp === undefined || fp === "prefer") return ((fp || ip) as CpuThreadPolicy) ?? null;
  if (truthy(ip) && ip !== fp)
    fail("ImageCPUThreadPolicyForbidden", `image hw_cpu_thread_policy=${ip} conflicts with flavor ${fp}`);
  return (fp as CpuThreadPolicy) || null;
}

function emulatorThreadPolicy(flavor: FlavorView): "share" | "isolate" | null {
  const p = flavor.extraSpecs.get("hw:emulator_threads_policy");
  if (!p) return null;
  if (!EMULATOR_POLICIES.includes(p))
    fail("InvalidEmulatorThreadsPolicy", `hw:emulator_threads_policy=${p} is not one of ${EMULATOR_POLICIES}`);
  return p as "share" | "isolate";
}

const subset = (a: PySet, of: Set<number>): boolean => a.values().every((x) => of.has(x));
const allCpus = (vcpus: number): Set<number> => new Set(Array.from({ length: Math.max(vcpus, 0) }, (_, i) => i));

/** A CPU mask, "^" masks taken from every vCPU. */
function parseMask(mask: string, vcpus: number): PySet {
  return pyStrip(mask).startsWith("^") ? parseCpuSpec(`0-${vcpus - 1},${mask}`) : parseCpuSpec(mask);
}

function realtimeCpuConstraint(flavor: FlavorView, image: ImageProps): PySet | null {
  if (!boolFromString(flavor.extraSpecs.get("hw:cpu_realtime"))) return null;
  const [fm, im] = flavorImage("cpu_realtime_mask", flavor, image);
  const mask = (truthy(im) ? String(im) : undefined) || fm;
  const all = allCpus(flavor.vcpus);
  const rt = mask ? parseMask(mask, flavor.vcpus) : PySet.of(all);
  if (!rt.size) fail("RealtimeMaskNotFoundOrInvalid", "the realtime mask selects no vCPU");
  const emu = emulatorThreadPolicy(flavor);
  if (rt.size === all.size && subset(rt, all) && !emu)
    fail("RealtimeMaskNotFoundOrInvalid", "the realtime mask must leave a vCPU for the emulator threads");
  if (!subset(rt, all)) fail("RealtimeMaskNotFoundOrInvalid", "the realtime mask names vCPUs the flavor does not have");
  return rt;
}

function dedicatedCpuConstraint(flavor: FlavorView): PySet | null {
  const mask = flavor.extraSpecs.get("hw:cpu_dedicated_mask");
  if (!mask) return null;
  const pcpus = parseMask(mask, flavor.vcpus);
  const all = allCpus(flavor.vcpus);
  const shared = [...all].filter((x) => !pcpus.has(x));
  if (!pcpus.size || !shared.length)
    fail("InvalidMixedInstanceDedicatedMask", "hw:cpu_dedicated_mask must leave both dedicated and shared vCPUs");
  if (!subset(pcpus, all))
    fail("InvalidMixedInstanceDedicatedMask", "hw:cpu_dedicated_mask names vCPUs the flavor does not have");
  return pcpus;
}

/** _get_vcpu_pcpu_resources: resources[N]:VCPU / PCPU amounts (bad integers are ignored here). */
function vcpuPcpuResources(flavor: FlavorView): [number, number] {
  let vcpu = 0;
  let pcpu = 0;
  for (const [key, val] of flavor.extraSpecs) {
    const add = (re: RegExp) => {
      if (!re.test(key)) return 0;
      try {
        return pyInt(val);
      } catch {
        return 0;
      }
    };
    vcpu += add(/^resources([1-9][0-9]*)?:VCPU/);
    pcpu += add(/^resources([1-9][0-9]*)?:PCPU/);
  }
  return [vcpu, pcpu];
}

function hyperthreadingTrait(flavor: FlavorView, image: ImageProps): string | null {
  for (const [key, val] of flavor.extraSpecs) if (/^trait([1-9][0-9]*)?:HW_CPU_HYPERTHREADING/.test(key)) return val;
  const traits = image.get("traits_required");
  if (Array.isArray(traits) && traits.includes("HW_CPU_HYPERTHREADING")) return "required";
  return null;
}

/** strutils.is_int_like: str(int(v)) == str(v). */
function isIntLike(v: PyValue): boolean {
  if (typeof v === "number") return Number.isInteger(v);
  if (typeof v !== "string") return false;
  try {
    return String(pyInt(v)) === v;
  } catch {
    return false;
  }
}

function numaNodeCount(flavor: FlavorView, image: ImageProps): number | null {
  const [fn, imn] = flavorImage("numa_nodes", flavor, image);
  if (fn && truthy(imn)) fail("ImageNUMATopologyForbidden", "hw_numa_nodes is set by both flavor and image");
  const nodes = fn || imn;
  if (nodes !== undefined && nodes !== null && (!isIntLike(nodes) || Number(nodes) < 1))
    fail("InvalidNUMANodesNumber", `invalid number of NUMA nodes: ${nodes}`);
  return truthy(nodes) ? Number(nodes) : null;
}

/** strutils.string_to_bytes(IEC, return_int=True) / 1024. */
function pageSizeOf(request: string): number {
  if (request === "any") return MEMPAGES_ANY;
  if (request === "large") return MEMPAGES_LARGE;
  if (request === "small") return MEMPAGES_SMALL;
  if (/^\d+$/.test(request)) return Number(request);
  const m = /^([-+]?\d*\.?\d+)([KMGT]i?)?(b|bit|B)$/.exec(request);
  if (!m) return fail("MemoryPageSizeInvalid", `invalid memory page size ${request}`);
  let magnitude = Number.parseFloat(m[1]);
  if (m[3] !== "B") magnitude /= 8;
  const exp = m[2] ? { K: 1, Ki: 1, M: 2, Mi: 2, G: 3, Gi: 3, T: 4, Ti: 4 }[m[2]]! : 0;
  // IntegerField keeps int() of the KiB count
  return Math.trunc(Math.ceil(magnitude * 1024 ** exp) / 1024);
}

function pagesizeConstraint(flavor: FlavorView, image: ImageProps): number | null {
  const [fr, ir] = flavorImage("mem_page_size", flavor, image);
  if (!fr && truthy(ir)) fail("MemoryPageSizeForbidden", `image hw_mem_page_size=${ir} without a flavor page size`);
  if (!fr) return null;
  const pagesize = pageSizeOf(fr);
  if (truthy(ir) && (pagesize === MEMPAGES_ANY || pagesize === MEMPAGES_LARGE)) return pageSizeOf(String(ir));
  if (truthy(ir)) fail("MemoryPageSizeForbidden", `image hw_mem_page_size=${ir} conflicts with flavor ${fr}`);
  return pagesize;
}

function lockedMemoryConstraint(flavor: FlavorView, image: ImageProps): void {
  const [fps, ips] = flavorImage("mem_page_size", flavor, image);
  const [fl, il] = flavorImage("locked_memory", flavor, image);
  let locked: boolean | undefined;
  if (fl !== undefined) {
    locked = boolFromString(fl);
    if (il !== undefined && il !== null && locked !== il)
      fail("FlavorImageLockedMemoryConflict", "hw:locked_memory conflicts with hw_locked_memory");
  } else locked = il === true;
  if (locked && !(fps || truthy(ips))) fail("LockMemoryForbidden", "locked memory needs a page size");
}

function vpmems(flavor: FlavorView): string[] {
  const info = flavor.extraSpecs.get("hw:pmem");
  if (!info) return [];
  return info
    .split(",")
    .map(pyStrip)
    .filter((l) => l);
}

/** The hw:numa_cpus.N / hw:numa_mem.N lists of a flavor, or the image's. */
function cellLists(
  flavor: FlavorView,
  imageCpus: PySet[] | null,
  imageMem: number[] | null,
): [PySet[] | null, number[] | null] {
  const read = <T>(key: string, f: (v: string) => T): T[] | null => {
    const out: T[] = [];
    for (let i = 0; i < NUMA_NODES_MAX; i++) {
      const v = flavor.extraSpecs.get(`${key}.${i}`);
      if (v === undefined) break;
      out.push(f(v));
    }
    return out.length ? out : null;
  };
  const fc = read("hw:numa_cpus", parseCpuSpec);
  let cpus = imageCpus;
  if (fc !== null) {
    if (imageCpus !== null) fail("ImageNUMATopologyForbidden", "hw_numa_cpus is set by both flavor and image");
    cpus = fc;
  }
  const fm = read("hw:numa_mem", pyInt);
  let mem = imageMem;
  if (fm !== null) {
    if (imageMem !== null) fail("ImageNUMATopologyForbidden", "hw_numa_mem is set by both flavor and image");
    mem = fm;
  }
  return [cpus, mem];
}

function cell(id: number, cpus: Iterable<number>, pcpus: Set<number>, memory: number): InstanceNUMACell {
  const all = [...cpus].sort((a, b) => a - b);
  return {
    id,
    cpuset: all.filter((c) => !pcpus.has(c)),
    pcpuset: all.filter((c) => pcpus.has(c)),
    memory,
    pagesize: null,
    cpuPolicy: null,
    cpuThreadPolicy: null,
    cpuPinning: null,
    cpusetReserved: null,
  };
}

function topologyAuto(nodes: number, flavor: FlavorView, pcpus: Set<number>): InstanceNUMACell[] {
  if (flavor.vcpus % nodes || flavor.memoryMb % nodes)
    fail(
      "ImageNUMATopologyAsymmetric",
      `${flavor.vcpus} vCPUs / ${flavor.memoryMb} MiB do not split over ${nodes} nodes`,
    );
  const ncpus = Math.trunc(flavor.vcpus / nodes);
  const mem = Math.trunc(flavor.memoryMb / nodes);
  return Array.from({ length: nodes }, (_, node) =>
    cell(
      node,
      Array.from({ length: ncpus }, (_, i) => node * ncpus + i),
      pcpus,
      mem,
    ),
  );
}

function topologyManual(
  nodes: number,
  flavor: FlavorView,
  pcpus: Set<number>,
  cpuList: PySet[],
  memList: number[],
): InstanceNUMACell[] {
  const avail = allCpus(flavor.vcpus);
  const cells: InstanceNUMACell[] = [];
  let total = 0;
  for (let node = 0; node < nodes; node++) {
    const cpus = cpuList[node];
    for (const c of cpus.values()) {
      if (c > flavor.vcpus - 1)
        fail("ImageNUMATopologyCPUOutOfRange", `CPU ${c} is out of range (max ${flavor.vcpus - 1})`);
      if (!avail.has(c)) fail("ImageNUMATopologyCPUDuplicates", `CPU ${c} is in more than one NUMA node`);
      avail.delete(c);
    }
    cells.push(cell(node, cpus.values(), pcpus, memList[node]));
    total += memList[node];
  }
  if (avail.size) fail("ImageNUMATopologyCPUsUnassigned", `CPUs ${[...avail]} are not assigned to any NUMA node`);
  if (total !== flavor.memoryMb)
    fail("ImageNUMATopologyMemoryOutOfRange", `NUMA nodes have ${total} MiB, the flavor ${flavor.memoryMb} MiB`);
  return cells;
}

/** numa_get_constraints: the guest topology, or null when none is asked for. */
export function numaGetConstraints(
  flavor: FlavorView,
  image: ImageProps,
  imageCpus: PySet[] | null = null,
  imageMem: number[] | null = null,
): InstanceNUMATopology | null {
  let cpuPolicy = cpuPolicyConstraint(flavor, image);
  let threadPolicy = cpuThreadPolicyConstraint(flavor, image);
  const realtime = realtimeCpuConstraint(flavor, image);
  let dedicated = dedicatedCpuConstraint(flavor);
  const emu = emulatorThreadPolicy(flavor);

  const [vcpuRes, pcpuRes] = vcpuPcpuResources(flavor);
  if (cpuPolicy && (vcpuRes || pcpuRes))
    fail("InvalidRequest", "resources:VCPU / resources:PCPU cannot be combined with a CPU policy");
  if (vcpuRes && pcpuRes) fail("InvalidRequest", "resources:VCPU and resources:PCPU cannot both be given");
  if (pcpuRes) {
    if (emu === "isolate" && flavor.vcpus + 1 !== pcpuRes)
      fail("InvalidRequest", "emulator threads isolate needs exactly vcpus + 1 PCPUs");
    if (emu !== "isolate" && flavor.vcpus !== pcpuRes)
      fail("InvalidRequest", "resources:PCPU must equal the flavor's vcpus");
    cpuPolicy = "dedicated";
  }
  if (vcpuRes) cpuPolicy = "shared";

  const trait = hyperthreadingTrait(flavor, image);
  if (threadPolicy && trait)
    fail("InvalidRequest", "trait:HW_CPU_HYPERTHREADING cannot be combined with a CPU thread policy");
  if (trait === "forbidden") threadPolicy = "isolate";
  else if (trait === "required") threadPolicy = "require";

  if (cpuPolicy === "shared" || cpuPolicy === null) {
    if (threadPolicy) fail("CPUThreadPolicyConfigurationInvalid", "a CPU thread policy needs dedicated CPUs");
    if (emu === "isolate") fail("BadRequirementEmulatorThreadsPolicy", "emulator threads isolate needs dedicated CPUs");
    if (dedicated?.size) fail("RequiredMixedInstancePolicy", "hw:cpu_dedicated_mask needs hw:cpu_policy=mixed");
    if (realtime?.size) fail("RealtimeConfigurationInvalid", "realtime needs dedicated CPUs");
  } else if (cpuPolicy === "dedicated") {
    if (dedicated?.size) fail("RequiredMixedInstancePolicy", "hw:cpu_dedicated_mask needs hw:cpu_policy=mixed");
  } else {
    if (realtime?.size && dedicated?.size)
      fail("RequiredMixedOrRealtimeCPUMask", "give hw:cpu_realtime_mask or hw:cpu_dedicated_mask, not both");
    if (!(realtime?.size || dedicated?.size))
      fail("RequiredMixedOrRealtimeCPUMask", "mixed needs hw:cpu_realtime_mask or hw:cpu_dedicated_mask");
    dedicated = dedicated?.size ? dedicated : realtime;
  }

  const nodes = numaNodeCount(flavor, image);
  const pagesize = pagesizeConstraint(flavor, image);
  const pmem = vpmems(flavor);
  lockedMemoryConstraint(flavor, image);

  let pcpus = new Set<number>(dedicated?.values() ?? []);
  if (cpuPolicy === "dedicated") pcpus = allCpus(flavor.vcpus);

  if (!(nodes || pagesize || pmem.length || cpuPolicy === "dedicated" || cpuPolicy === "mixed")) return null;
  const n = nodes || 1;
  const [cpuList, memList] = cellLists(flavor, imageCpus, imageMem);
  let cells: InstanceNUMACell[];
  if (cpuList === null && memList === null) cells = topologyAuto(n, flavor, pcpus);
  else if (cpuList !== null && memList !== null) {
    if (cpuList.length !== n || memList.length !== n)
      fail("ImageNUMATopologyIncomplete", "every NUMA node needs its CPUs and memory");
    cells = topologyManual(n, flavor, pcpus, cpuList, memList);
  } else return fail("ImageNUMATopologyIncomplete", "hw:numa_cpus.N and hw:numa_mem.N go together");
  for (const c of cells) {
    c.pagesize = pagesize;
    c.cpuPolicy = cpuPolicy;
    c.cpuThreadPolicy = threadPolicy;
  }
  return { cells, emulatorThreadsPolicy: emu };
}

/** get_pci_numa_policy_constraint. */
export function pciNumaPolicyConstraint(flavor: FlavorView, image: ImageProps): string | null {
  const [fp, ip] = flavorImage("pci_numa_affinity_policy", flavor, image);
  if (fp && truthy(ip) && fp !== ip)
    fail("ImagePCINUMAPolicyForbidden", "hw:pci_numa_affinity_policy conflicts with the image's");
  const policy = fp || (truthy(ip) ? String(ip) : null);
  if (policy && !PCI_NUMA_POLICIES.includes(policy))
    fail("InvalidPCINUMAAffinity", `invalid PCI NUMA affinity policy ${policy}`);
  return policy || null;
}
