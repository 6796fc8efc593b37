/** A stored flavor's sizes under Nova's field names, as the audit trail and the scenario export both show them. */
export function flavorSizes(f: { vcpus: number; memoryMb: number; rootGb: number; ephemeralGb: number; swap: number }) {
  return { vcpus: f.vcpus, memory_mb: f.memoryMb, root_gb: f.rootGb, ephemeral_gb: f.ephemeralGb, swap: f.swap };
}
