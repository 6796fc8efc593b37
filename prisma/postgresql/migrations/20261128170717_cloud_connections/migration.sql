-- Connections to clouds read over their APIs, and the syncs of them
-- (prisma/migrations/20261128170717_cloud_connections).
CREATE TABLE "CloudConnection" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "settings" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    CONSTRAINT "CloudConnection_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "SyncRun" (
    "id" SERIAL NOT NULL,
    "connectionId" INTEGER,
    "connectionName" TEXT NOT NULL,
    "startedBy" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),
    "status" TEXT NOT NULL,
    "progress" TEXT,
    "error" TEXT,
    "result" TEXT,
    CONSTRAINT "SyncRun_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "CloudConnection_name_key" ON "CloudConnection"("name");
CREATE INDEX "SyncRun_startedAt_idx" ON "SyncRun"("startedAt");
CREATE INDEX "SyncRun_status_idx" ON "SyncRun"("status");

ALTER TABLE "SyncRun" ADD CONSTRAINT "SyncRun_connectionId_fkey" FOREIGN KEY ("connectionId") REFERENCES "CloudConnection"("id") ON DELETE SET NULL ON UPDATE CASCADE;
