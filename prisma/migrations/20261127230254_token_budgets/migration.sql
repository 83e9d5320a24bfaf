-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Budget" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "unit" TEXT NOT NULL DEFAULT 'usd',
    "amountUsd" REAL,
    "amountTokens" INTEGER,
    "period" TEXT NOT NULL,
    "warnAt" REAL NOT NULL DEFAULT 0.8,
    "onExceed" TEXT NOT NULL DEFAULT 'fail',
    "warned" INTEGER NOT NULL DEFAULT 0,
    "warnedWindow" TEXT,
    "setBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Budget" ("amountUsd", "createdAt", "id", "onExceed", "period", "scope", "setBy", "target", "teamId", "updatedAt", "warnAt", "warned", "warnedWindow") SELECT "amountUsd", "createdAt", "id", "onExceed", "period", "scope", "setBy", "target", "teamId", "updatedAt", "warnAt", "warned", "warnedWindow" FROM "Budget";
DROP TABLE "Budget";
ALTER TABLE "new_Budget" RENAME TO "Budget";
CREATE UNIQUE INDEX "Budget_teamId_scope_target_unit_key" ON "Budget"("teamId", "scope", "target", "unit");
CREATE TABLE "new_Interaction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sessionPk" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "response" TEXT,
    "status" TEXT NOT NULL,
    "isError" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "resultSubtype" TEXT,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER,
    "toolsUsed" TEXT NOT NULL DEFAULT '[]',
    "permissionDenials" TEXT NOT NULL DEFAULT '[]',
    "empty" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" DATETIME NOT NULL,
    "endedAt" DATETIME,
    "teamId" TEXT,
    "member" TEXT,
    "contractId" TEXT,
    "inputTokens" INTEGER NOT NULL DEFAULT 0,
    "cacheWriteTokens" INTEGER NOT NULL DEFAULT 0,
    "cacheReadTokens" INTEGER NOT NULL DEFAULT 0,
    "outputTokens" INTEGER NOT NULL DEFAULT 0
);
INSERT INTO "new_Interaction" ("contractId", "costUsd", "durationMs", "empty", "endedAt", "error", "id", "isError", "member", "n", "permissionDenials", "prompt", "response", "resultSubtype", "sessionPk", "startedAt", "status", "teamId", "toolsUsed", "turns") SELECT "contractId", "costUsd", "durationMs", "empty", "endedAt", "error", "id", "isError", "member", "n", "permissionDenials", "prompt", "response", "resultSubtype", "sessionPk", "startedAt", "status", "teamId", "toolsUsed", "turns" FROM "Interaction";
DROP TABLE "Interaction";
ALTER TABLE "new_Interaction" RENAME TO "Interaction";
CREATE INDEX "Interaction_teamId_endedAt_idx" ON "Interaction"("teamId", "endedAt");
CREATE INDEX "Interaction_teamId_member_endedAt_idx" ON "Interaction"("teamId", "member", "endedAt");
CREATE INDEX "Interaction_teamId_contractId_endedAt_idx" ON "Interaction"("teamId", "contractId", "endedAt");
CREATE UNIQUE INDEX "Interaction_sessionPk_n_key" ON "Interaction"("sessionPk", "n");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
