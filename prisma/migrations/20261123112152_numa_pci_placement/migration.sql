-- NUMA topologies, PCI device pools and Placement inventories of hosts, the
-- disk format of images, and the scheduler profiles' move from
-- `placement_prefilters` to Nova's own Placement options.
--
-- Written as ALTER TABLE ADD COLUMN (not Prisma's table rebuild) so the
-- ComputeHost CHECK constraints of the init migration stay in force; the
-- new columns carry their own. `npm run db:diff` sees no difference after it.

ALTER TABLE "ComputeHost" ADD COLUMN "numaTopology" TEXT
    CONSTRAINT "ComputeHost_numaTopology_json" CHECK ("numaTopology" IS NULL OR (json_valid("numaTopology") AND json_type("numaTopology", '$.cells') = 'array'));
ALTER TABLE "ComputeHost" ADD COLUMN "pciDevicePools" TEXT
    CONSTRAINT "ComputeHost_pciDevicePools_json" CHECK ("pciDevicePools" IS NULL OR (json_valid("pciDevicePools") AND json_type("pciDevicePools") = 'array'));
ALTER TABLE "ComputeHost" ADD COLUMN "pcpus" INTEGER NOT NULL DEFAULT 0
    CONSTRAINT "ComputeHost_pcpus_nonneg" CHECK ("pcpus" >= 0);
ALTER TABLE "ComputeHost" ADD COLUMN "pcpusUsed" INTEGER NOT NULL DEFAULT 0
    CONSTRAINT "ComputeHost_pcpusUsed_nonneg" CHECK ("pcpusUsed" >= 0);
ALTER TABLE "ComputeHost" ADD COLUMN "inventories" TEXT
    CONSTRAINT "ComputeHost_inventories_json" CHECK ("inventories" IS NULL OR (json_valid("inventories") AND json_type("inventories") = 'object'));

ALTER TABLE "Image" ADD COLUMN "diskFormat" TEXT;

-- Profiles: `placement_prefilters` (a Schedscope list) becomes Nova's path,
-- `placement: true`, with the [scheduler] options that select the same
-- request filters (compute_status, resources and traits always run on it).
UPDATE "SchedulerProfile"
SET "config" = json_set("config", '$.limit_tenants_to_placement_aggregate', json('true'))
WHERE json_type("config", '$.placement_prefilters') = 'array'
  AND EXISTS (SELECT 1 FROM json_each("config", '$.placement_prefilters') WHERE "value" = 'tenant_aggregates');

UPDATE "SchedulerProfile"
SET "config" = json_set("config",
      '$.placement', json('true'),
      '$.query_placement_for_availability_zone',
      json(CASE WHEN EXISTS (SELECT 1 FROM json_each("config", '$.placement_prefilters') WHERE "value" = 'availability_zone')
                THEN 'true' ELSE 'false' END))
WHERE json_type("config", '$.placement_prefilters') = 'array'
  AND EXISTS (SELECT 1 FROM json_each("config", '$.placement_prefilters')
              WHERE "value" IN ('resources', 'compute_status', 'availability_zone', 'tenant_aggregates', 'traits'));

UPDATE "SchedulerProfile"
SET "config" = json_remove("config", '$.placement_prefilters')
WHERE json_type("config", '$.placement_prefilters') IS NOT NULL;
