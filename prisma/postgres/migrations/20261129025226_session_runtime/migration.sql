-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "runtime" TEXT NOT NULL DEFAULT 'claude';
