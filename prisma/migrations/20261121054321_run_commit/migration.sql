-- AlterTable
ALTER TABLE "SchedulingRun" ADD COLUMN "committedAt" DATETIME;
ALTER TABLE "SchedulingRun" ADD COLUMN "committedInstances" TEXT;
