-- Read-only tokens for Prometheus scrapes of /metrics (hash only; revocable).
-- CreateTable
CREATE TABLE "ScrapeToken" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME
);

-- CreateIndex
CREATE UNIQUE INDEX "ScrapeToken_name_key" ON "ScrapeToken"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ScrapeToken_tokenHash_key" ON "ScrapeToken"("tokenHash");
