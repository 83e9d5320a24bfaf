-- AlterTable
ALTER TABLE "ArtifactVersion" ADD COLUMN "codeBranch" TEXT;
ALTER TABLE "ArtifactVersion" ADD COLUMN "codeCheckpoint" BOOLEAN;
ALTER TABLE "ArtifactVersion" ADD COLUMN "codeCommit" TEXT;
