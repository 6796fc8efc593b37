/**
 * A filter is one file and one registry line: a descriptor that reads a new
 * aggregate metadata key shows on the aggregate and host pages (their
 * reader column is describeMetadataKey's), in the metadata editor's
 * catalogue and checks, and in the NoValidHost advice, with no other edit.
 * The registry here is a test's own: the registry's filters plus one.
 */
import { describe, expect, it } from "vitest";
import { describeMetadataKey, metadataCatalog } from "@/lib/catalog/metadata-keys";
import { filterKnowledge } from "@/lib/scheduler/knowledge";
import { defineFilter } from "@/lib/scheduler/plugin";
import { FILTER_DESCRIPTORS, WEIGHER_DESCRIPTORS } from "@/lib/scheduler/registry";
import type { ScheduleResult } from "@/lib/scheduler/result";
import { explainFailure } from "./advice";

const AggregateRackFilter = defineFilter({
  name: "AggregateRackFilter",
  doc: "Hosts in the racks the request's rack hint names.",
  reasons: { WRONG_RACK: "in another rack" },
  advice: { WRONG_RACK: "Add the requested rack to the rack metadata of an aggregate with capacity." },
  reads: {
    metadata: [
      {
        key: "rack",
        meaning: "the racks of the aggregate's hosts; requests for another rack skip them",
        valueHint: "rack names, comma separated",
        value: { kind: "list", of: "rack name" },
      },
    ],
    hints: ["rack"],
  },
  factory: () => ({ name: "AggregateRackFilter", runOncePerRequest: true, check: () => null }),
});

const knowledge = filterKnowledge({ ...FILTER_DESCRIPTORS, AggregateRackFilter }, WEIGHER_DESCRIPTORS);
const catalog = metadataCatalog(knowledge);

describe("a new filter descriptor, in a test's registry", () => {
  it("names its metadata key's reader where the aggregate and host pages show it", () => {
    expect(describeMetadataKey("rack").reader).toBe("AggregateInstanceExtraSpecsFilter");
    expect(catalog.describeMetadataKey("rack")).toMatchObject({
      reader: "AggregateRackFilter",
      meaning: "the racks of the aggregate's hosts; requests for another rack skip them",
      valueHint: "rack names, comma separated",
    });
  });

  it("puts the key in the editor's catalogue, checked by the descriptor's rule", () => {
    expect(catalog.suggestedKeys).toContain("rack");
    expect(catalog.metadataValueError("rack", " ")).toBe(
      "value: rack must list at least one rack name (empty rejects every request)",
    );
    expect(catalog.metadataValueError("rack", "r1,r2")).toBeNull();
    expect(knowledge.hintReaders.get("rack")).toEqual(["AggregateRackFilter"]);
  });

  it("advises from its reason code, in new results and in results that name only the filter", () => {
    const result = (codes?: string[]): ScheduleResult =>
      ({
        error: "NoValidHost",
        requests: [
          {
            funnel: [
              {
                filter: "AggregateRackFilter",
                in: 2,
                out: 0,
                reasons: ["in another rack", "in another rack"],
                ...(codes ? { codes } : {}),
              },
            ],
          },
        ],
      }) as unknown as ScheduleResult;
    const words = "Add the requested rack to the rack metadata of an aggregate with capacity.";
    expect(explainFailure(result(["WRONG_RACK", "WRONG_RACK"]), undefined, knowledge)?.advice).toContain(words);
    expect(explainFailure(result(), undefined, knowledge)?.advice).toContain(words);
    expect(explainFailure(result(["WRONG_RACK", "WRONG_RACK"]))?.advice).not.toContain(words);
  });
});
