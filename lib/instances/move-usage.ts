/** What committing a move does to its source and destination hosts' usage. Pure. */
import { demandOf, type Demand, type FlavorSize } from "@/lib/runs/commit-room";

/**
 * The usage a committed move changes, per host row: the source gives back
 * the old flavor's footprint, the destination takes the new one's (the
 * same row for a resize to the same host: the difference).
 */
export function moveUsage(
  source: string,
  destination: string,
  oldFlavor: FlavorSize,
  newFlavor: FlavorSize,
): Map<string, Demand & { instances: number }> {
  const out = new Map<string, Demand & { instances: number }>();
  const add = (host: string, d: Demand, sign: 1 | -1) => {
    const cur = out.get(host) ?? { vcpus: 0, memoryMb: 0, diskGb: 0, instances: 0 };
    out.set(host, {
      vcpus: cur.vcpus + sign * d.vcpus,
      memoryMb: cur.memoryMb + sign * d.memoryMb,
      diskGb: cur.diskGb + sign * d.diskGb,
      instances: cur.instances + sign,
    });
  };
  add(source, demandOf(oldFlavor), -1);
  add(destination, demandOf(newFlavor), 1);
  return out;
}
