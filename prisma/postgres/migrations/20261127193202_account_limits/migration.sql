-- AlterTable
ALTER TABLE "Session" ADD COLUMN     "account" TEXT;

-- CreateTable
CREATE TABLE "AccountLimit" (
    "account" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "window" TEXT,
    "resetsAt" TIMESTAMP(3),
    "utilization" DOUBLE PRECISION,
    "since" TIMESTAMP(3) NOT NULL,
    "message" TEXT,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AccountLimit_pkey" PRIMARY KEY ("account")
);

-- CreateIndex
CREATE INDEX "Session_account_idx" ON "Session"("account");
