-- AlterTable
ALTER TABLE "Interaction" ADD COLUMN "contractId" TEXT;
ALTER TABLE "Interaction" ADD COLUMN "member" TEXT;
ALTER TABLE "Interaction" ADD COLUMN "teamId" TEXT;

-- CreateTable
CREATE TABLE "Budget" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "amountUsd" REAL NOT NULL,
    "period" TEXT NOT NULL,
    "warnAt" REAL NOT NULL DEFAULT 0.8,
    "onExceed" TEXT NOT NULL DEFAULT 'fail',
    "warned" INTEGER NOT NULL DEFAULT 0,
    "warnedWindow" TEXT,
    "setBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Budget_teamId_scope_target_key" ON "Budget"("teamId", "scope", "target");

-- CreateIndex
CREATE INDEX "Interaction_teamId_endedAt_idx" ON "Interaction"("teamId", "endedAt");

-- CreateIndex
CREATE INDEX "Interaction_teamId_member_endedAt_idx" ON "Interaction"("teamId", "member", "endedAt");

-- CreateIndex
CREATE INDEX "Interaction_teamId_contractId_endedAt_idx" ON "Interaction"("teamId", "contractId", "endedAt");
