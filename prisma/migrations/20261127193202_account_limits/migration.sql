-- AlterTable
ALTER TABLE "Session" ADD COLUMN "account" TEXT;

-- CreateTable
CREATE TABLE "AccountLimit" (
    "account" TEXT NOT NULL PRIMARY KEY,
    "label" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "window" TEXT,
    "resetsAt" DATETIME,
    "utilization" REAL,
    "since" DATETIME NOT NULL,
    "message" TEXT,
    "updatedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Session_account_idx" ON "Session"("account");
