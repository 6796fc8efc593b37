/**
 * Nova's enum fields and their canonicalisation (nova.objects.fields), used
 * where Nova coerces scenario values: supported_instances, image properties
 * and metric names. An invalid value raises ValueError, as Nova does.
 */
import { NovaError } from "./python";

export const ARCHITECTURES = new Set([
  "alpha",
  "armv6",
  "armv7l",
  "armv7b",
  "aarch64",
  "cris",
  "i686",
  "ia64",
  "lm32",
  "m68k",
  "microblaze",
  "microblazeel",
  "mips",
  "mipsel",
  "mips64",
  "mips64el",
  "openrisc",
  "parisc",
  "parisc64",
  "ppc",
  "ppcle",
  "ppc64",
  "ppc64le",
  "ppcemb",
  "s390",
  "s390x",
  "sh4",
  "sh4eb",
  "sparc",
  "sparc64",
  "unicore32",
  "x86_64",
  "xtensa",
  "xtensaeb",
]);
export const HV_TYPES = new Set([
  "baremetal",
  "bhyve",
  "docker",
  "fake",
  "hyperv",
  "ironic",
  "kqemu",
  "kvm",
  "lxc",
  "lxd",
  "openvz",
  "parallels",
  "phyp",
  "qemu",
  "test",
  "uml",
  "vbox",
  "vz",
  "vmware",
  "xen",
  "zvm",
  "prsm",
]);
export const VM_MODES = new Set(["hvm", "xen", "uml", "exe"]);
export const MONITOR_METRIC_TYPES = new Set([
  "cpu.frequency",
  "cpu.user.time",
  "cpu.kernel.time",
  "cpu.idle.time",
  "cpu.iowait.time",
  "cpu.user.percent",
  "cpu.kernel.percent",
  "cpu.idle.percent",
  "cpu.iowait.percent",
  "cpu.percent",
  "numa.membw.max",
  "numa.membw.current",
]);
/** Metrics Nova stores ×100 as integers (MonitorMetricList.from_json). */
export const METRICS_STORED_PERCENT = new Set([
  "cpu.user.percent",
  "cpu.kernel.percent",
  "cpu.idle.percent",
  "cpu.iowait.percent",
  "cpu.percent",
]);

export function canonicalizeArch(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  let n = String(name).toLowerCase();
  if (n === "i386" || n === "i486" || n === "i586" || n === "x86_32" || n === "x86_32p") n = "i686";
  if (n === "amd64") n = "x86_64";
  if (!ARCHITECTURES.has(n)) throw new NovaError("ValueError", `Architecture name '${name}' is not valid`);
  return n;
}

export function canonicalizeHvType(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  let n = String(name).toLowerCase();
  if (n === "xapi") n = "xen";
  if (!HV_TYPES.has(n)) throw new NovaError("ValueError", `Hypervisor virt type '${name}' is not valid`);
  return n;
}

export function canonicalizeVmMode(name: string | null | undefined): string | null {
  if (name === null || name === undefined) return null;
  let n = String(name).toLowerCase();
  if (n === "pv") n = "xen";
  if (n === "hv" || n === "baremetal") n = "hvm";
  if (!VM_MODES.has(n)) throw new NovaError("ValueError", `Virtual machine mode '${n}' is not valid`);
  return n;
}
