-- The cloud's history (lib/history/): every import records a snapshot whose
-- content is a manifest of record digests; each distinct record is stored
-- once. Instances keep the availability zone and creation time Nova reports
-- (what the predictions rebuild a server's request from and order it by).
ALTER TABLE "Instance" ADD COLUMN "availabilityZone" TEXT;
ALTER TABLE "Instance" ADD COLUMN "created" TEXT;

CREATE TABLE "HistorySnapshot" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "takenAt" DATETIME NOT NULL,
    "recordedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "source" TEXT NOT NULL,
    "startedBy" TEXT NOT NULL,
    "label" TEXT,
    "profileName" TEXT,
    "counts" TEXT NOT NULL,
    "digest" TEXT NOT NULL,
    "bytes" INTEGER NOT NULL,
    "addedBytes" INTEGER NOT NULL,
    "manifest" TEXT NOT NULL,
    "predictions" TEXT
);

CREATE TABLE "HistoryRecord" (
    "digest" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "json" TEXT NOT NULL
);

CREATE INDEX "HistorySnapshot_takenAt_idx" ON "HistorySnapshot"("takenAt");
