-- AlterTable
ALTER TABLE "SchedulingRun" ADD COLUMN "cloudRevision" INTEGER;
ALTER TABLE "SchedulingRun" ADD COLUMN "resultGz" BLOB;

-- CreateTable
CREATE TABLE "CloudRevision" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT DEFAULT 1,
    "revision" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "CloudSnapshot" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "revision" INTEGER NOT NULL,
    "data" BLOB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE UNIQUE INDEX "CloudSnapshot_revision_key" ON "CloudSnapshot"("revision");
