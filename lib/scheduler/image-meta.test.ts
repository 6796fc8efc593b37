// Expected strings are what Nova Zed's ImageMetaProps.from_dict gives for
// the same properties (str() of hw_numa_cpus, or the exception's text).
import { describe, expect, it } from "vitest";
import { buildImageProps, imagePropGet } from "./image-meta";
import { NovaError, pyStr } from "./python";

describe("hw_numa_cpus.N is parsed as hardware.parse_cpu_spec does", () => {
  it.each([
    ["0-3,^1", "[CoercedSet({0, 2, 3})]"],
    // a set prints in CPython's table order, not sorted
    ["128-131,3", "[CoercedSet({128, 129, 130, 131, 3})]"],
    ["20-23,0-1", "[CoercedSet({0, 1, 20, 21, 22, 23})]"],
  ])("%s gives %s", (spec, shown) => {
    const props = buildImageProps({ "hw_numa_cpus.0": spec, "hw_numa_mem.0": "512" });
    expect(pyStr(imagePropGet(props, "hw_numa_cpus")!)).toBe(shown);
  });

  it.each([
    ["1-x,2", "Invalid range expression '1-x'"],
    ["0,^y", "Invalid exclusion expression '^y'"],
    ["4-2", "Invalid range expression '4-2'"],
  ])("%s is refused, naming the rule: %s", (spec, message) => {
    const build = () => buildImageProps({ "hw_numa_cpus.0": spec, "hw_numa_mem.0": "512" });
    expect(build).toThrow(NovaError);
    expect(build).toThrow(message);
  });
});
