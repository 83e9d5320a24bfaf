-- CreateTable
CREATE TABLE "Webhook" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "createdBy" TEXT NOT NULL,
    "fromEventId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "webhookPk" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "eventId" INTEGER,
    "eventType" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "headers" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL,
    "maxAttempts" INTEGER NOT NULL,
    "nextAttemptAt" DATETIME,
    "claimedBy" TEXT,
    "claimedUntil" DATETIME,
    "responseCode" INTEGER,
    "lastError" TEXT,
    "durationMs" REAL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "deliveredAt" DATETIME
);

-- CreateTable
CREATE TABLE "WebhookCursor" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "lastEventId" INTEGER NOT NULL
);

-- CreateIndex
CREATE UNIQUE INDEX "Webhook_teamId_id_key" ON "Webhook"("teamId", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookPk_id_idx" ON "WebhookDelivery"("webhookPk", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_webhookPk_eventId_key" ON "WebhookDelivery"("webhookPk", "eventId");
