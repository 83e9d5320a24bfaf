-- AlterTable
ALTER TABLE "Worktree" ADD COLUMN     "included" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "runEndedAt" TIMESTAMP(3),
ADD COLUMN     "runExitCode" INTEGER,
ADD COLUMN     "runStartedAt" TIMESTAMP(3),
ADD COLUMN     "runStatus" TEXT,
ADD COLUMN     "runnable" TEXT,
ADD COLUMN     "setupError" TEXT,
ADD COLUMN     "setupExitCode" INTEGER,
ADD COLUMN     "setupFinishedAt" TIMESTAMP(3),
ADD COLUMN     "setupStartedAt" TIMESTAMP(3),
ADD COLUMN     "setupStatus" TEXT;

-- CreateTable
CREATE TABLE "PortLease" (
    "port" INTEGER NOT NULL,
    "worktreeId" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "session" TEXT NOT NULL,
    "slot" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PortLease_pkey" PRIMARY KEY ("port")
);

-- CreateTable
CREATE TABLE "ProcessOutput" (
    "id" SERIAL NOT NULL,
    "worktreeId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ProcessOutput_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PortLease_worktreeId_idx" ON "PortLease"("worktreeId");

-- CreateIndex
CREATE INDEX "ProcessOutput_worktreeId_kind_id_idx" ON "ProcessOutput"("worktreeId", "kind", "id");
