-- CreateIndex
CREATE INDEX "WebhookDelivery_webhookPk_status_nextAttemptAt_idx" ON "WebhookDelivery"("webhookPk", "status", "nextAttemptAt");
