-- Nested resource providers under a compute node and several compute nodes
-- of one service host (prisma/migrations/20261126150000_child_providers_nodes).
ALTER TABLE "ComputeHost" ADD COLUMN "childProviders" TEXT,
  ADD COLUMN "serviceHost" TEXT,
  ADD CONSTRAINT "ComputeHost_childProviders_json"
    CHECK ("childProviders" IS NULL OR COALESCE("schedscope_json_type"("childProviders"), '') = 'array');
