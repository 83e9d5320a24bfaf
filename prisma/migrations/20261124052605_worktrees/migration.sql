-- CreateTable
CREATE TABLE "Worktree" (
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
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Worktree_sessionPk_key" ON "Worktree"("sessionPk");

-- CreateIndex
CREATE INDEX "Worktree_teamId_idx" ON "Worktree"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "Worktree_repoDir_branch_key" ON "Worktree"("repoDir", "branch");
