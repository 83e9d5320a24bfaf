-- CreateTable
CREATE TABLE "PortLease" (
    "port" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "worktreeId" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "session" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ProcessOutput" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "worktreeId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Worktree" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "session" TEXT NOT NULL,
    "sessionPk" INTEGER,
    "repoDir" TEXT NOT NULL,
    "path" TEXT,
    "branch" TEXT NOT NULL,
    "baseBranch" TEXT,
    "baseCommit" TEXT NOT NULL,
    "operation" TEXT,
    "mergedCommit" TEXT,
    "runnable" TEXT,
    "included" TEXT NOT NULL DEFAULT '[]',
    "setupStatus" TEXT,
    "setupExitCode" INTEGER,
    "setupError" TEXT,
    "setupStartedAt" DATETIME,
    "setupFinishedAt" DATETIME,
    "runStatus" TEXT,
    "runExitCode" INTEGER,
    "runStartedAt" DATETIME,
    "runEndedAt" DATETIME,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);
INSERT INTO "new_Worktree" ("baseBranch", "baseCommit", "branch", "createdAt", "id", "mergedCommit", "operation", "path", "repoDir", "session", "sessionPk", "teamId", "updatedAt") SELECT "baseBranch", "baseCommit", "branch", "createdAt", "id", "mergedCommit", "operation", "path", "repoDir", "session", "sessionPk", "teamId", "updatedAt" FROM "Worktree";
DROP TABLE "Worktree";
ALTER TABLE "new_Worktree" RENAME TO "Worktree";
CREATE UNIQUE INDEX "Worktree_sessionPk_key" ON "Worktree"("sessionPk");
CREATE INDEX "Worktree_teamId_idx" ON "Worktree"("teamId");
CREATE UNIQUE INDEX "Worktree_repoDir_branch_key" ON "Worktree"("repoDir", "branch");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "PortLease_worktreeId_idx" ON "PortLease"("worktreeId");

-- CreateIndex
CREATE INDEX "ProcessOutput_worktreeId_kind_id_idx" ON "ProcessOutput"("worktreeId", "kind", "id");
