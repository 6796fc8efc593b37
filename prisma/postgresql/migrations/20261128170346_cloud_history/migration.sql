-- The cloud's history (prisma/migrations/<same name>): snapshots as manifests
-- of record digests, each distinct record stored once; instances keep the
-- availability zone and creation time Nova reports.
ALTER TABLE "Instance" ADD COLUMN "availabilityZone" TEXT,
  ADD COLUMN "created" TEXT;

CREATE TABLE "HistorySnapshot" (
    "id" SERIAL NOT NULL,
    "takenAt" TIMESTAMP(3) NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL,
    "startedBy" TEXT NOT NULL,
    "label" TEXT,
    "profileName" TEXT,
    "counts" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "addedBytes" INTEGER NOT NULL,
    "manifest" TEXT NOT NULL,
    "predictions" TEXT,
    CONSTRAINT "HistorySnapshot_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "HistoryRecord" (
    "digest" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "json" TEXT NOT NULL,
    CONSTRAINT "HistoryRecord_pkey" PRIMARY KEY ("digest")
);

CREATE INDEX "HistorySnapshot_takenAt_idx" ON "HistorySnapshot"("takenAt");
