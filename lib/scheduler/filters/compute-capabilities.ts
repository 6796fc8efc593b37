import { compileRequirement, type Matcher } from "../extra-specs-ops";
import type { HostState } from "../host-state";
import { hasHostAttribute, hostAttribute } from "../host-attributes";
import { defineFilter, type Reason } from "../plugin";
import { pyStr, type PyValue } from "../python";

/** ComputeCapabilitiesFilter._get_capabilities: walk a scope into the host. */
function getCapabilities(host: HostState, scope: string[]): PyValue | undefined {
  let cap: PyValue | HostState = host;
  for (let i = 0; i < scope.length; i++) {
    if (typeof cap === "string") {
      try {
        // cpu_info is parsed once per host, not once per spec and request.
        cap = JSON.parse(cap) as PyValue;
      } catch {
        return undefined;
      }
    }
    if (cap === host && scope[i] === "cpu_info" && i < scope.length - 1) {
      // Nova json-loads the cpu_info text on the next step: the object itself.
      cap = host.cpuInfoObject();
      continue;
    }
    if (cap === host && scope[i] === "service" && i < scope.length - 1) {
      // host_state.service is a ReadOnlyDict (a UserDict, not a dict): the
      // walk getattr()s into it, finds nothing and fails.
      return undefined;
    }
    if (cap === host) {
      const v = hostAttribute(host, scope[i]);
      cap = v === undefined || v === null ? (host.stats[scope[i]] ?? null) : v;
    } else if (cap !== null && typeof cap === "object" && !Array.isArray(cap) && cap.constructor === Object) {
      const d = cap as Record<string, PyValue>;
      cap = Object.hasOwn(d, scope[i]) ? d[scope[i]] : null;
    } else {
      return undefined; // getattr on a plain value, then .stats: AttributeError
    }
    if (cap === null || cap === undefined) return undefined;
  }
  return cap as PyValue;
}

type CapabilityCode = "CAPABILITY_MISSING" | "CAPABILITY_MISMATCH";

/**
 * ComputeCapabilitiesFilter: flavor extra specs scoped "capabilities:" (or
 * unscoped ones naming a HostState attribute or stat) must match the host.
 */
export const ComputeCapabilitiesFilter = defineFilter({
  name: "ComputeCapabilitiesFilter",
  doc: "Matches flavor extra specs capabilities:* (and unscoped keys) against host attributes.",
  reasons: {
    CAPABILITY_MISSING: "without a capability the flavor asks for",
    CAPABILITY_MISMATCH: "with capabilities not matching the flavor",
  },
  reads: {
    extraSpecs: ["capabilities:*", "*"],
  },
  factory: (config) => {
    const maxphysaddrBits = config.release.maxphysaddrBitsChecks;
    let specs: Array<{ key: string; scope: string[]; req: string; matches: Matcher }> = [];
    // When every spec reads cpu_info, hosts with the same cpu_info (one object
    // for equal ones on a frozen snapshot) get the same answer: worked out once.
    let byCpuInfo: Map<PyValue, Reason<CapabilityCode> | null> | null = null;
    function answer(host: HostState): Reason<CapabilityCode> | null {
      for (let i = 0; i < specs.length; i++) {
        const s = specs[i];
        const cap = getCapabilities(host, s.scope);
        if (cap === undefined)
          return { code: "CAPABILITY_MISSING", message: `no capability ${s.scope.join(":")} (extra spec ${s.key})` };
        const value = pyStr(cap);
        if (!s.matches(value))
          return {
            code: "CAPABILITY_MISMATCH",
            message: `capability ${s.scope.join(":")}=${value} not matching "${s.req}"`,
          };
      }
      return null;
    }
    return {
      name: "ComputeCapabilitiesFilter",
      runOncePerRequest: true,
      prepare(spec) {
        specs = [];
        let extraSpecs = spec.flavor.extraSpecs;
        const bits = maxphysaddrBits ? extraSpecs.find((e) => e.key === "hw:maxphysaddr_bits") : undefined;
        if (bits) {
          // 2024.1 (1038a63387 "libvirt: Support maxphysaddr."): the bits become
          // a capabilities spec, replacing one already there in its place
          // (a dict assignment), else added last.
          const key = "capabilities:cpu_info:maxphysaddr:bits";
          const value = `>= ${bits.value}`;
          extraSpecs = extraSpecs.some((e) => e.key === key)
            ? extraSpecs.map((e) => (e.key === key ? { key, value } : e))
            : [...extraSpecs, { key, value }];
        }
        for (const { key, value } of extraSpecs) {
          const scope = key.split(":");
          if (scope.length === 1) {
            // Only keys that are HostState attributes or stats are checked.
            if (!hasHostAttribute(key) && !["num_instances", "io_workload", "failed_builds"].includes(key)) continue;
            specs.push({ key, scope, req: value, matches: compileRequirement(value) });
          } else if (scope[0] === "capabilities") {
            specs.push({ key, scope: scope.slice(1), req: value, matches: compileRequirement(value) });
          }
        }
        byCpuInfo =
          specs.length && specs.every((s) => s.scope.length > 1 && s.scope[0] === "cpu_info") ? new Map() : null;
      },
      passesEveryHost: () => !specs.length,
      check(host) {
        if (byCpuInfo === null) return answer(host);
        const info = host.cpuInfoObject();
        let a = byCpuInfo.get(info);
        if (a === undefined) byCpuInfo.set(info, (a = answer(host)));
        return a;
      },
    };
  },
});
