-- The whole schema for PostgreSQL: Prisma's SQL for prisma/postgresql/schema.prisma
-- (generated from prisma/schema.prisma), then the integrity rules Prisma cannot
-- express, the same as the SQLite migrations' hand-written CHECKs and partial
-- unique index (docs/data-model.md).

-- CreateTable
CREATE TABLE "Cell" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "uuid" TEXT,

    CONSTRAINT "Cell_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ComputeHost" (
    "id" SERIAL NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "hypervisorHostname" TEXT NOT NULL,
    "uuid" TEXT,
    "cellId" INTEGER NOT NULL,
    "vcpus" INTEGER NOT NULL,
    "vcpusUsed" INTEGER NOT NULL DEFAULT 0,
    "memoryMb" INTEGER NOT NULL,
    "memoryMbUsed" INTEGER NOT NULL DEFAULT 0,
    "localGb" INTEGER NOT NULL,
    "localGbUsed" INTEGER NOT NULL DEFAULT 0,
    "freeRamMb" INTEGER,
    "freeDiskGb" INTEGER,
    "diskAvailableLeast" INTEGER,
    "reservedVcpus" INTEGER NOT NULL DEFAULT 0,
    "reservedMemoryMb" INTEGER NOT NULL DEFAULT 0,
    "reservedDiskGb" INTEGER NOT NULL DEFAULT 0,
    "numaTopology" TEXT,
    "pciDevicePools" TEXT,
    "pcpus" INTEGER NOT NULL DEFAULT 0,
    "pcpusUsed" INTEGER NOT NULL DEFAULT 0,
    "inventories" TEXT,
    "cpuAllocationRatio" DOUBLE PRECISION NOT NULL DEFAULT 4.0,
    "ramAllocationRatio" DOUBLE PRECISION NOT NULL DEFAULT 1.0,
    "diskAllocationRatio" DOUBLE PRECISION NOT NULL DEFAULT 1.0,
    "hypervisorType" TEXT NOT NULL DEFAULT 'QEMU',
    "hypervisorVersion" INTEGER NOT NULL DEFAULT 6002000,
    "hostIp" TEXT,
    "supportedInstances" TEXT NOT NULL DEFAULT '[]',
    "cpuInfo" TEXT NOT NULL DEFAULT '{}',
    "numInstances" INTEGER NOT NULL DEFAULT 0,
    "numIoOps" INTEGER NOT NULL DEFAULT 0,
    "failedBuilds" INTEGER NOT NULL DEFAULT 0,
    "serviceDisabled" BOOLEAN NOT NULL DEFAULT false,
    "disabledReason" TEXT,
    "serviceUp" BOOLEAN NOT NULL DEFAULT true,
    "forcedDown" BOOLEAN NOT NULL DEFAULT false,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ComputeHost_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HostMetric" (
    "id" SERIAL NOT NULL,
    "hostId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "HostMetric_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "HostTrait" (
    "id" SERIAL NOT NULL,
    "hostId" INTEGER NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "HostTrait_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Aggregate" (
    "id" SERIAL NOT NULL,
    "position" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "uuid" TEXT,
    "availabilityZone" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Aggregate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AggregateHost" (
    "id" SERIAL NOT NULL,
    "aggregateId" INTEGER NOT NULL,
    "hostId" INTEGER NOT NULL,

    CONSTRAINT "AggregateHost_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AggregateMetadata" (
    "id" SERIAL NOT NULL,
    "aggregateId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "AggregateMetadata_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Flavor" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "flavorid" TEXT,
    "vcpus" INTEGER NOT NULL,
    "memoryMb" INTEGER NOT NULL,
    "rootGb" INTEGER NOT NULL DEFAULT 0,
    "ephemeralGb" INTEGER NOT NULL DEFAULT 0,
    "swap" INTEGER NOT NULL DEFAULT 0,
    "isPublic" BOOLEAN NOT NULL DEFAULT true,
    "description" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Flavor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "FlavorExtraSpec" (
    "id" SERIAL NOT NULL,
    "flavorId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "FlavorExtraSpec_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Image" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT NOT NULL,
    "name" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "diskFormat" TEXT,

    CONSTRAINT "Image_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImageProperty" (
    "id" SERIAL NOT NULL,
    "imageId" INTEGER NOT NULL,
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "json" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "ImageProperty_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ServerGroup" (
    "id" SERIAL NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "uuid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "policy" TEXT NOT NULL,
    "rules" TEXT NOT NULL DEFAULT '{}',
    "projectId" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "ServerGroup_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Instance" (
    "id" SERIAL NOT NULL,
    "uuid" TEXT NOT NULL,
    "name" TEXT,
    "hostId" INTEGER,
    "flavorId" INTEGER,
    "imageId" INTEGER,
    "projectId" TEXT,
    "serverGroupId" INTEGER,
    "version" INTEGER NOT NULL DEFAULT 1,

    CONSTRAINT "Instance_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SchedulerProfile" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "config" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SchedulerProfile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SchedulingRun" (
    "id" SERIAL NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "profileName" TEXT,
    "request" TEXT NOT NULL,
    "config" TEXT NOT NULL,
    "snapshot" TEXT NOT NULL,
    "result" TEXT NOT NULL,
    "cloudRevision" INTEGER,
    "resultGz" BYTEA,
    "flavorName" TEXT NOT NULL,
    "numInstances" INTEGER NOT NULL,
    "error" TEXT,
    "chosenHosts" TEXT NOT NULL DEFAULT '[]',
    "hostCount" INTEGER NOT NULL DEFAULT 0,
    "engineMs" DOUBLE PRECISION,
    "committedAt" TIMESTAMP(3),
    "committedInstances" TEXT,

    CONSTRAINT "SchedulingRun_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CloudRevision" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "revision" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CloudRevision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CloudSnapshot" (
    "id" SERIAL NOT NULL,
    "revision" INTEGER NOT NULL,
    "data" BYTEA NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CloudSnapshot_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "emailVerified" BOOLEAN NOT NULL DEFAULT false,
    "image" TEXT,
    "username" TEXT,
    "displayUsername" TEXT,
    "role" TEXT NOT NULL DEFAULT 'viewer',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "token" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "ipAddress" TEXT,
    "userAgent" TEXT,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Account" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "providerId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "accessToken" TEXT,
    "refreshToken" TEXT,
    "idToken" TEXT,
    "accessTokenExpiresAt" TIMESTAMP(3),
    "refreshTokenExpiresAt" TIMESTAMP(3),
    "scope" TEXT,
    "password" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Account_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Verification" (
    "id" TEXT NOT NULL,
    "identifier" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Verification_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SignInThrottle" (
    "name" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "firstAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMP(3),

    CONSTRAINT "SignInThrottle_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "AppSetting" (
    "key" TEXT NOT NULL,
    "value" TEXT NOT NULL,

    CONSTRAINT "AppSetting_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "AuditEntry" (
    "id" SERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "userId" TEXT,
    "userName" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "entity" TEXT NOT NULL,
    "entityKey" TEXT NOT NULL,
    "entityId" INTEGER,
    "before" TEXT,
    "after" TEXT,

    CONSTRAINT "AuditEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Cell_name_key" ON "Cell"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Cell_uuid_key" ON "Cell"("uuid");

-- CreateIndex
CREATE UNIQUE INDEX "ComputeHost_name_key" ON "ComputeHost"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ComputeHost_uuid_key" ON "ComputeHost"("uuid");

-- CreateIndex
CREATE INDEX "ComputeHost_cellId_idx" ON "ComputeHost"("cellId");

-- CreateIndex
CREATE INDEX "ComputeHost_position_idx" ON "ComputeHost"("position");

-- CreateIndex
CREATE UNIQUE INDEX "HostMetric_hostId_name_key" ON "HostMetric"("hostId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "HostTrait_hostId_name_key" ON "HostTrait"("hostId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Aggregate_name_key" ON "Aggregate"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Aggregate_uuid_key" ON "Aggregate"("uuid");

-- CreateIndex
CREATE INDEX "Aggregate_position_idx" ON "Aggregate"("position");

-- CreateIndex
CREATE INDEX "Aggregate_availabilityZone_idx" ON "Aggregate"("availabilityZone");

-- CreateIndex
CREATE INDEX "AggregateHost_hostId_idx" ON "AggregateHost"("hostId");

-- CreateIndex
CREATE UNIQUE INDEX "AggregateHost_aggregateId_hostId_key" ON "AggregateHost"("aggregateId", "hostId");

-- CreateIndex
CREATE INDEX "AggregateMetadata_key_idx" ON "AggregateMetadata"("key");

-- CreateIndex
CREATE UNIQUE INDEX "AggregateMetadata_aggregateId_key_key" ON "AggregateMetadata"("aggregateId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Flavor_name_key" ON "Flavor"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Flavor_flavorid_key" ON "Flavor"("flavorid");

-- CreateIndex
CREATE UNIQUE INDEX "FlavorExtraSpec_flavorId_key_key" ON "FlavorExtraSpec"("flavorId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "Image_uuid_key" ON "Image"("uuid");

-- CreateIndex
CREATE INDEX "Image_name_idx" ON "Image"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ImageProperty_imageId_key_key" ON "ImageProperty"("imageId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "ServerGroup_uuid_key" ON "ServerGroup"("uuid");

-- CreateIndex
CREATE INDEX "ServerGroup_name_idx" ON "ServerGroup"("name");

-- CreateIndex
CREATE UNIQUE INDEX "Instance_uuid_key" ON "Instance"("uuid");

-- CreateIndex
CREATE INDEX "Instance_hostId_idx" ON "Instance"("hostId");

-- CreateIndex
CREATE INDEX "Instance_flavorId_idx" ON "Instance"("flavorId");

-- CreateIndex
CREATE INDEX "Instance_imageId_idx" ON "Instance"("imageId");

-- CreateIndex
CREATE INDEX "Instance_serverGroupId_idx" ON "Instance"("serverGroupId");

-- CreateIndex
CREATE UNIQUE INDEX "SchedulerProfile_name_key" ON "SchedulerProfile"("name");

-- CreateIndex
CREATE INDEX "SchedulingRun_createdAt_idx" ON "SchedulingRun"("createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "CloudSnapshot_revision_key" ON "CloudSnapshot"("revision");

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "User_username_key" ON "User"("username");

-- CreateIndex
CREATE UNIQUE INDEX "Session_token_key" ON "Session"("token");

-- CreateIndex
CREATE INDEX "Session_userId_idx" ON "Session"("userId");

-- CreateIndex
CREATE INDEX "Account_userId_idx" ON "Account"("userId");

-- CreateIndex
CREATE INDEX "Verification_identifier_idx" ON "Verification"("identifier");

-- CreateIndex
CREATE INDEX "AuditEntry_entity_entityId_idx" ON "AuditEntry"("entity", "entityId");

-- CreateIndex
CREATE INDEX "AuditEntry_entity_entityKey_idx" ON "AuditEntry"("entity", "entityKey");

-- CreateIndex
CREATE INDEX "AuditEntry_at_idx" ON "AuditEntry"("at");

-- CreateIndex
CREATE INDEX "AuditEntry_userName_idx" ON "AuditEntry"("userName");

-- AddForeignKey
ALTER TABLE "ComputeHost" ADD CONSTRAINT "ComputeHost_cellId_fkey" FOREIGN KEY ("cellId") REFERENCES "Cell"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HostMetric" ADD CONSTRAINT "HostMetric_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "ComputeHost"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "HostTrait" ADD CONSTRAINT "HostTrait_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "ComputeHost"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AggregateHost" ADD CONSTRAINT "AggregateHost_aggregateId_fkey" FOREIGN KEY ("aggregateId") REFERENCES "Aggregate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AggregateHost" ADD CONSTRAINT "AggregateHost_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "ComputeHost"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "AggregateMetadata" ADD CONSTRAINT "AggregateMetadata_aggregateId_fkey" FOREIGN KEY ("aggregateId") REFERENCES "Aggregate"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "FlavorExtraSpec" ADD CONSTRAINT "FlavorExtraSpec_flavorId_fkey" FOREIGN KEY ("flavorId") REFERENCES "Flavor"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ImageProperty" ADD CONSTRAINT "ImageProperty_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Instance" ADD CONSTRAINT "Instance_hostId_fkey" FOREIGN KEY ("hostId") REFERENCES "ComputeHost"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Instance" ADD CONSTRAINT "Instance_flavorId_fkey" FOREIGN KEY ("flavorId") REFERENCES "Flavor"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Instance" ADD CONSTRAINT "Instance_imageId_fkey" FOREIGN KEY ("imageId") REFERENCES "Image"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Instance" ADD CONSTRAINT "Instance_serverGroupId_fkey" FOREIGN KEY ("serverGroupId") REFERENCES "ServerGroup"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Account" ADD CONSTRAINT "Account_userId_fkey" FOREIGN KEY ("userId") REFERENCES "User"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- ---------------------------------------------------------------------------
-- Hand-written: integrity rules (mirror the SQLite migrations' CHECKs).

-- json_valid()/json_type() of SQLite: the JSON type of a text, NULL when it is not JSON.
CREATE FUNCTION "schedscope_json_type"(t TEXT) RETURNS TEXT LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN jsonb_typeof(t::jsonb);
EXCEPTION WHEN others THEN
  RETURN NULL;
END
$$;

ALTER TABLE "Cell" ADD CONSTRAINT "Cell_name_nonempty" CHECK (length("name") > 0);
ALTER TABLE "ComputeHost"
  ADD CONSTRAINT "ComputeHost_name_nonempty" CHECK (length("name") > 0),
  ADD CONSTRAINT "ComputeHost_position_nonneg" CHECK ("position" >= 0),
  ADD CONSTRAINT "ComputeHost_vcpus_nonneg" CHECK ("vcpus" >= 0 AND "vcpusUsed" >= 0),
  ADD CONSTRAINT "ComputeHost_memoryMb_nonneg" CHECK ("memoryMb" >= 0 AND "memoryMbUsed" >= 0),
  ADD CONSTRAINT "ComputeHost_localGb_nonneg" CHECK ("localGb" >= 0 AND "localGbUsed" >= 0),
  ADD CONSTRAINT "ComputeHost_reserved_nonneg" CHECK ("reservedVcpus" >= 0 AND "reservedMemoryMb" >= 0 AND "reservedDiskGb" >= 0),
  ADD CONSTRAINT "ComputeHost_allocation_ratios_nonneg" CHECK ("cpuAllocationRatio" >= 0 AND "ramAllocationRatio" >= 0 AND "diskAllocationRatio" >= 0),
  ADD CONSTRAINT "ComputeHost_hypervisorVersion_nonneg" CHECK ("hypervisorVersion" >= 0),
  ADD CONSTRAINT "ComputeHost_stats_nonneg" CHECK ("numInstances" >= 0 AND "numIoOps" >= 0 AND "failedBuilds" >= 0),
  ADD CONSTRAINT "ComputeHost_supportedInstances_json" CHECK ("schedscope_json_type"("supportedInstances") = 'array'),
  ADD CONSTRAINT "ComputeHost_cpuInfo_json" CHECK ("schedscope_json_type"("cpuInfo") = 'object');
ALTER TABLE "HostMetric" ADD CONSTRAINT "HostMetric_name_nonempty" CHECK (length("name") > 0);
ALTER TABLE "HostTrait" ADD CONSTRAINT "HostTrait_name_nonempty" CHECK (length("name") > 0);
ALTER TABLE "Aggregate"
  ADD CONSTRAINT "Aggregate_name_nonempty" CHECK (length("name") > 0),
  ADD CONSTRAINT "Aggregate_position_nonneg" CHECK ("position" >= 0);
ALTER TABLE "AggregateMetadata" ADD CONSTRAINT "AggregateMetadata_key_nonempty" CHECK (length("key") > 0);
ALTER TABLE "Flavor"
  ADD CONSTRAINT "Flavor_name_nonempty" CHECK (length("name") > 0),
  ADD CONSTRAINT "Flavor_resources_nonneg" CHECK ("vcpus" >= 0 AND "memoryMb" >= 0 AND "rootGb" >= 0 AND "ephemeralGb" >= 0 AND "swap" >= 0);
ALTER TABLE "FlavorExtraSpec" ADD CONSTRAINT "FlavorExtraSpec_key_nonempty" CHECK (length("key") > 0);
ALTER TABLE "Image" ADD CONSTRAINT "Image_uuid_nonempty" CHECK (length("uuid") > 0);
ALTER TABLE "ImageProperty"
  ADD CONSTRAINT "ImageProperty_key_nonempty" CHECK (length("key") > 0),
  ADD CONSTRAINT "ImageProperty_value_json" CHECK (NOT "json" OR "schedscope_json_type"("value") IS NOT NULL);
ALTER TABLE "ServerGroup"
  ADD CONSTRAINT "ServerGroup_uuid_nonempty" CHECK (length("uuid") > 0 AND length("name") > 0),
  ADD CONSTRAINT "ServerGroup_policy_valid" CHECK ("policy" IN ('affinity', 'anti-affinity', 'soft-affinity', 'soft-anti-affinity')),
  ADD CONSTRAINT "ServerGroup_rules_json" CHECK ("schedscope_json_type"("rules") = 'object');
ALTER TABLE "Instance" ADD CONSTRAINT "Instance_uuid_nonempty" CHECK (length("uuid") > 0);
ALTER TABLE "SchedulerProfile"
  ADD CONSTRAINT "SchedulerProfile_name_nonempty" CHECK (length("name") > 0),
  ADD CONSTRAINT "SchedulerProfile_config_json" CHECK ("schedscope_json_type"("config") = 'object');
ALTER TABLE "SchedulingRun"
  ADD CONSTRAINT "SchedulingRun_numInstances_nonneg" CHECK ("numInstances" >= 0),
  ADD CONSTRAINT "SchedulingRun_engineMs_nonneg" CHECK ("engineMs" IS NULL OR "engineMs" >= 0),
  ADD CONSTRAINT "SchedulingRun_hostCount_nonneg" CHECK ("hostCount" >= 0),
  ADD CONSTRAINT "SchedulingRun_json_valid" CHECK (
    "schedscope_json_type"("request") IS NOT NULL AND "schedscope_json_type"("config") IS NOT NULL
    AND "schedscope_json_type"("snapshot") IS NOT NULL AND "schedscope_json_type"("result") IS NOT NULL
    AND "schedscope_json_type"("chosenHosts") IS NOT NULL);
ALTER TABLE "User" ADD CONSTRAINT "User_role_valid" CHECK ("role" IN ('admin', 'operator', 'viewer'));
ALTER TABLE "SignInThrottle" ADD CONSTRAINT "SignInThrottle_failures_nonneg" CHECK ("failures" >= 0);

-- At most one active scheduler profile.
CREATE UNIQUE INDEX "SchedulerProfile_single_active" ON "SchedulerProfile"("active") WHERE "active";
