-- Read-only tokens for Prometheus scrapes of /metrics (hash only; revocable).
-- CreateTable
CREATE TABLE "ScrapeToken" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ScrapeToken_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "ScrapeToken_name_key" ON "ScrapeToken"("name");

-- CreateIndex
CREATE UNIQUE INDEX "ScrapeToken_tokenHash_key" ON "ScrapeToken"("tokenHash");
