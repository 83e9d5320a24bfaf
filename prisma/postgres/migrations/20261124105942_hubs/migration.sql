-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "dir" TEXT,
ADD COLUMN     "hubId" TEXT;

-- CreateTable
CREATE TABLE "Hub" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "host" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "dataDir" TEXT NOT NULL,
    "version" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "heartbeatAt" TIMESTAMP(3) NOT NULL,
    "status" TEXT NOT NULL,
    "stoppedAt" TIMESTAMP(3),

    CONSTRAINT "Hub_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Session_hubId_idx" ON "Session"("hubId");
