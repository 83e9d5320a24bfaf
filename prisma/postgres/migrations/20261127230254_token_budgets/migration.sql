-- DropIndex
DROP INDEX "Budget_teamId_scope_target_key";

-- AlterTable
ALTER TABLE "Budget" ADD COLUMN     "amountTokens" INTEGER,
ADD COLUMN     "unit" TEXT NOT NULL DEFAULT 'usd',
ALTER COLUMN "amountUsd" DROP NOT NULL;

-- AlterTable
ALTER TABLE "Interaction" ADD COLUMN     "cacheReadTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "cacheWriteTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "inputTokens" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "outputTokens" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE UNIQUE INDEX "Budget_teamId_scope_target_unit_key" ON "Budget"("teamId", "scope", "target", "unit");
