-- DropIndex
DROP INDEX "PipelineExecution_pipelinePk_ruleIndex_eventId_key";

-- DropIndex
DROP INDEX "PipelineExecution_pipelinePk_ruleIndex_at_idx";

-- CreateIndex
CREATE INDEX "PipelineExecution_pipelinePk_idx" ON "PipelineExecution"("pipelinePk");

-- CreateIndex
CREATE INDEX "PipelineExecution_pipelinePk_ruleIndex_at_idx" ON "PipelineExecution"("pipelinePk", "ruleIndex", "at") WHERE "outcome" = 'executed';

-- CreateIndex
CREATE UNIQUE INDEX "PipelineExecution_eventId_pipelinePk_ruleIndex_key" ON "PipelineExecution"("eventId", "pipelinePk", "ruleIndex");
