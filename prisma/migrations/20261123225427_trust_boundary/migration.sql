-- AlterTable
ALTER TABLE "Session" ADD COLUMN "queuedAt" DATETIME;
ALTER TABLE "Session" ADD COLUMN "sandbox" TEXT;
ALTER TABLE "Session" ADD COLUMN "spawnedBy" TEXT;

-- CreateTable
CREATE TABLE "TeamGrant" (
    "teamId" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "grantedBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("teamId", "principal", "role")
);

-- CreateIndex
CREATE INDEX "TeamGrant_principal_idx" ON "TeamGrant"("principal");
