-- Nested resource providers under a compute node and several compute nodes
-- of one service host (Ironic). ALTER TABLE ADD COLUMN keeps the table's
-- CHECKs in force; `npm run db:diff` sees no difference after it.
ALTER TABLE "ComputeHost" ADD COLUMN "childProviders" TEXT
    CONSTRAINT "ComputeHost_childProviders_json" CHECK ("childProviders" IS NULL OR (json_valid("childProviders") AND json_type("childProviders") = 'array'));
ALTER TABLE "ComputeHost" ADD COLUMN "serviceHost" TEXT;
