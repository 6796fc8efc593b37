-- The CHECKs of the SQLite migrations, exactly:
--  * the NUMA topology, PCI device pools, PCPU inventory and Placement
--    inventories of hosts (SQLite: 20261123112152_numa_pci_placement), which
--    the PostgreSQL init migration lacked;
--  * the JSON shape checks of the init migration refused wrong JSON but let
--    text that is not JSON at all through ("schedscope_json_type" is NULL
--    then, and a CHECK that is NULL passes): compare with COALESCE instead.

-- SQLite's json_type(t, '$.member'): the JSON type of a top-level member of
-- a JSON text, NULL when the text is not JSON or has no such member.
CREATE FUNCTION "schedscope_json_type"(t TEXT, member TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN jsonb_typeof(t::jsonb -> member);
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;

ALTER TABLE "ComputeHost"
  DROP CONSTRAINT "ComputeHost_supportedInstances_json",
  DROP CONSTRAINT "ComputeHost_cpuInfo_json",
  ADD CONSTRAINT "ComputeHost_supportedInstances_json"
    CHECK (COALESCE("schedscope_json_type"("supportedInstances"), '') = 'array'),
  ADD CONSTRAINT "ComputeHost_cpuInfo_json" CHECK (COALESCE("schedscope_json_type"("cpuInfo"), '') = 'object'),
  ADD CONSTRAINT "ComputeHost_numaTopology_json"
    CHECK ("numaTopology" IS NULL OR COALESCE("schedscope_json_type"("numaTopology", 'cells'), '') = 'array'),
  ADD CONSTRAINT "ComputeHost_pciDevicePools_json"
    CHECK ("pciDevicePools" IS NULL OR COALESCE("schedscope_json_type"("pciDevicePools"), '') = 'array'),
  ADD CONSTRAINT "ComputeHost_pcpus_nonneg" CHECK ("pcpus" >= 0),
  ADD CONSTRAINT "ComputeHost_pcpusUsed_nonneg" CHECK ("pcpusUsed" >= 0),
  ADD CONSTRAINT "ComputeHost_inventories_json"
    CHECK ("inventories" IS NULL OR COALESCE("schedscope_json_type"("inventories"), '') = 'object');

ALTER TABLE "ServerGroup"
  DROP CONSTRAINT "ServerGroup_rules_json",
  ADD CONSTRAINT "ServerGroup_rules_json" CHECK (COALESCE("schedscope_json_type"("rules"), '') = 'object');

ALTER TABLE "SchedulerProfile"
  DROP CONSTRAINT "SchedulerProfile_config_json",
  ADD CONSTRAINT "SchedulerProfile_config_json" CHECK (COALESCE("schedscope_json_type"("config"), '') = 'object');
