-- AlterTable
ALTER TABLE "Interaction" ADD COLUMN "error" TEXT;

-- AlterTable
ALTER TABLE "Session" ADD COLUMN "problem" TEXT;

-- Backfill: sessions that already ended failed or stopped at a limit say why.
UPDATE "Session" SET "problem" = "exitReason" || ': ' || COALESCE("lastError", 'no message') WHERE "status" = 'failed';
UPDATE "Session" SET "problem" = (SELECT v."detail" FROM "SafetyViolation" v WHERE v."sessionPk" = "Session"."pk" ORDER BY v."id" DESC LIMIT 1)
WHERE "status" = 'stopped' AND "exitReason" LIKE 'limit:%';
