-- AlterTable
ALTER TABLE "Session" ADD COLUMN "dir" TEXT;
ALTER TABLE "Session" ADD COLUMN "hubId" TEXT;

-- CreateTable
CREATE TABLE "Hub" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "url" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "dataDir" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "heartbeatAt" DATETIME NOT NULL,
    "status" TEXT NOT NULL,
    "stoppedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "Session_hubId_idx" ON "Session"("hubId");
