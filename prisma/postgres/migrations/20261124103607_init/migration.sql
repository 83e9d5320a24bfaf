-- CreateTable
CREATE TABLE "Team" (
    "id" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMP(3),
    "settings" TEXT NOT NULL DEFAULT '{}',

    CONSTRAINT "Team_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Event" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT,
    "type" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "causedBy" INTEGER,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Principal" (
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Principal_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "TeamGrant" (
    "teamId" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "grantedBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "TeamGrant_pkey" PRIMARY KEY ("teamId","principal","role")
);

-- CreateTable
CREATE TABLE "Token" (
    "id" SERIAL NOT NULL,
    "principal" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "Token_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Artifact" (
    "pk" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "latestVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "Artifact_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "ArtifactTag" (
    "artifactPk" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,

    CONSTRAINT "ArtifactTag_pkey" PRIMARY KEY ("artifactPk","tag")
);

-- CreateTable
CREATE TABLE "ArtifactVersion" (
    "seq" SERIAL NOT NULL,
    "artifactPk" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "publisher" TEXT NOT NULL,
    "sessionId" TEXT,
    "contractId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "codeCommit" TEXT,
    "codeBranch" TEXT,
    "codeCheckpoint" BOOLEAN,

    CONSTRAINT "ArtifactVersion_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "LineageEdge" (
    "id" SERIAL NOT NULL,
    "fromSeq" INTEGER NOT NULL,
    "toSeq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "contractId" TEXT,

    CONSTRAINT "LineageEdge_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ArtifactRead" (
    "id" SERIAL NOT NULL,
    "seq" INTEGER NOT NULL,
    "reader" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArtifactRead_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ArtifactType" (
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "jsonSchema" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ArtifactType_pkey" PRIMARY KEY ("teamId","name")
);

-- CreateTable
CREATE TABLE "Contract" (
    "pk" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "assigner" TEXT NOT NULL,
    "assignee" TEXT NOT NULL,
    "inputs" TEXT NOT NULL DEFAULT '{}',
    "expectedOutputs" TEXT NOT NULL DEFAULT '[]',
    "acceptanceCriteria" TEXT NOT NULL DEFAULT '[]',
    "priority" TEXT NOT NULL DEFAULT 'normal',
    "timeoutMs" INTEGER,
    "deadlineAt" TIMESTAMP(3),
    "maxRetries" INTEGER NOT NULL DEFAULT 3,
    "retryCount" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "windowStartSeq" INTEGER NOT NULL DEFAULT 0,
    "pinnedInputs" TEXT,
    "outputs" TEXT,
    "startedAt" TIMESTAMP(3),
    "completedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Contract_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "ContractDependency" (
    "id" SERIAL NOT NULL,
    "contractPk" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "minVersion" INTEGER,

    CONSTRAINT "ContractDependency_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContractWatch" (
    "contractPk" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,

    CONSTRAINT "ContractWatch_pkey" PRIMARY KEY ("contractPk","kind","target")
);

-- CreateTable
CREATE TABLE "StaleMark" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "markedBy" TEXT NOT NULL,
    "causedBy" INTEGER,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "StaleMark_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Member" (
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'idle',
    "currentTask" TEXT,
    "sessionId" TEXT,
    "joinedAt" TIMESTAMP(3) NOT NULL,
    "lastSeen" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Member_pkey" PRIMARY KEY ("teamId","name")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "replyTo" INTEGER,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "readAt" TIMESTAMP(3),
    "archivedAt" TIMESTAMP(3),
    "archivedBy" TEXT,

    CONSTRAINT "Message_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ChatBlock" (
    "teamId" TEXT NOT NULL,
    "a" TEXT NOT NULL,
    "b" TEXT NOT NULL,
    "until" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ChatBlock_pkey" PRIMARY KEY ("teamId","a","b")
);

-- CreateTable
CREATE TABLE "Pipeline" (
    "pk" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rules" TEXT NOT NULL,
    "triggers" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "fromEventId" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Pipeline_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "PipelineExecution" (
    "id" SERIAL NOT NULL,
    "pipelinePk" INTEGER NOT NULL,
    "ruleIndex" INTEGER NOT NULL,
    "eventId" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "conditionResult" BOOLEAN,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "error" TEXT,
    "durationMs" DOUBLE PRECISION NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PipelineExecution_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PipelineCursor" (
    "id" INTEGER NOT NULL,
    "lastEventId" INTEGER NOT NULL,

    CONSTRAINT "PipelineCursor_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Snapshot" (
    "pk" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "maxSeq" INTEGER NOT NULL,
    "lastEventId" INTEGER NOT NULL,
    "state" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,

    CONSTRAINT "Snapshot_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "GateState" (
    "teamId" TEXT NOT NULL,
    "gateCount" INTEGER NOT NULL DEFAULT 0,
    "gatesAtLastBatch" INTEGER NOT NULL DEFAULT 0,
    "spawnBatchCount" INTEGER NOT NULL DEFAULT 0,
    "lastSpawnAt" TIMESTAMP(3),
    "lastGateAt" TIMESTAMP(3),

    CONSTRAINT "GateState_pkey" PRIMARY KEY ("teamId")
);

-- CreateTable
CREATE TABLE "Session" (
    "pk" SERIAL NOT NULL,
    "name" TEXT NOT NULL,
    "teamId" TEXT,
    "kind" TEXT NOT NULL DEFAULT 'session',
    "status" TEXT NOT NULL,
    "claudeSessionId" TEXT,
    "model" TEXT,
    "workDir" TEXT NOT NULL,
    "preset" TEXT NOT NULL DEFAULT 'edit',
    "allowedTools" TEXT NOT NULL DEFAULT '[]',
    "systemPrompt" TEXT,
    "agent" TEXT,
    "maxBudgetUsd" DOUBLE PRECISION,
    "safety" TEXT NOT NULL DEFAULT '{}',
    "principal" TEXT,
    "pid" INTEGER,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "interactions" INTEGER NOT NULL DEFAULT 0,
    "lastOutput" TEXT,
    "lastError" TEXT,
    "exitReason" TEXT,
    "problem" TEXT,
    "stalledAt" TIMESTAMP(3),
    "parent" TEXT,
    "spawnedBy" TEXT,
    "sandbox" TEXT,
    "queuedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,
    "lastEventAt" TIMESTAMP(3),

    CONSTRAINT "Session_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "Worktree" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "session" TEXT NOT NULL,
    "sessionPk" INTEGER,
    "repoDir" TEXT NOT NULL,
    "path" TEXT,
    "branch" TEXT NOT NULL,
    "baseBranch" TEXT,
    "baseCommit" TEXT NOT NULL,
    "operation" TEXT,
    "mergedCommit" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Worktree_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Interaction" (
    "id" SERIAL NOT NULL,
    "sessionPk" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "response" TEXT,
    "status" TEXT NOT NULL,
    "isError" BOOLEAN NOT NULL DEFAULT false,
    "error" TEXT,
    "resultSubtype" TEXT,
    "costUsd" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER,
    "toolsUsed" TEXT NOT NULL DEFAULT '[]',
    "permissionDenials" TEXT NOT NULL DEFAULT '[]',
    "empty" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "teamId" TEXT,
    "member" TEXT,
    "contractId" TEXT,

    CONSTRAINT "Interaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TranscriptEntry" (
    "id" SERIAL NOT NULL,
    "sessionPk" INTEGER NOT NULL,
    "interactionId" INTEGER,
    "at" TIMESTAMP(3) NOT NULL,
    "direction" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "subtype" TEXT,
    "payload" TEXT NOT NULL,

    CONSTRAINT "TranscriptEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" SERIAL NOT NULL,
    "sessionPk" INTEGER NOT NULL,
    "teamId" TEXT,
    "requestId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "decidedBy" TEXT,
    "note" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "decidedAt" TIMESTAMP(3),

    CONSTRAINT "Approval_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SafetyViolation" (
    "id" SERIAL NOT NULL,
    "sessionPk" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SafetyViolation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Decision" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "rationale" TEXT NOT NULL DEFAULT '',
    "alternatives" TEXT NOT NULL DEFAULT '[]',
    "related" TEXT NOT NULL DEFAULT '{}',
    "author" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Decision_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Pattern" (
    "pk" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "examples" TEXT NOT NULL DEFAULT '[]',
    "author" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Pattern_pkey" PRIMARY KEY ("pk")
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "claudeSessionId" TEXT,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT '{}',
    "lastEventId" INTEGER NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Checkpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Budget" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "scope" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "amountUsd" DOUBLE PRECISION NOT NULL,
    "period" TEXT NOT NULL,
    "warnAt" DOUBLE PRECISION NOT NULL DEFAULT 0.8,
    "onExceed" TEXT NOT NULL DEFAULT 'fail',
    "warned" INTEGER NOT NULL DEFAULT 0,
    "warnedWindow" TEXT,
    "setBy" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Budget_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Event_teamId_id_idx" ON "Event"("teamId", "id");

-- CreateIndex
CREATE INDEX "Event_type_id_idx" ON "Event"("type", "id");

-- CreateIndex
CREATE INDEX "TeamGrant_principal_idx" ON "TeamGrant"("principal");

-- CreateIndex
CREATE UNIQUE INDEX "Token_hash_key" ON "Token"("hash");

-- CreateIndex
CREATE INDEX "Token_principal_idx" ON "Token"("principal");

-- CreateIndex
CREATE INDEX "Artifact_teamId_type_idx" ON "Artifact"("teamId", "type");

-- CreateIndex
CREATE UNIQUE INDEX "Artifact_teamId_id_key" ON "Artifact"("teamId", "id");

-- CreateIndex
CREATE INDEX "ArtifactTag_tag_idx" ON "ArtifactTag"("tag");

-- CreateIndex
CREATE INDEX "ArtifactVersion_contractId_seq_idx" ON "ArtifactVersion"("contractId", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "ArtifactVersion_artifactPk_version_key" ON "ArtifactVersion"("artifactPk", "version");

-- CreateIndex
CREATE INDEX "LineageEdge_toSeq_idx" ON "LineageEdge"("toSeq");

-- CreateIndex
CREATE UNIQUE INDEX "LineageEdge_fromSeq_toSeq_key" ON "LineageEdge"("fromSeq", "toSeq");

-- CreateIndex
CREATE INDEX "ArtifactRead_seq_idx" ON "ArtifactRead"("seq");

-- CreateIndex
CREATE INDEX "Contract_teamId_status_idx" ON "Contract"("teamId", "status");

-- CreateIndex
CREATE INDEX "Contract_status_deadlineAt_idx" ON "Contract"("status", "deadlineAt");

-- CreateIndex
CREATE UNIQUE INDEX "Contract_teamId_id_key" ON "Contract"("teamId", "id");

-- CreateIndex
CREATE INDEX "ContractDependency_teamId_kind_targetId_idx" ON "ContractDependency"("teamId", "kind", "targetId");

-- CreateIndex
CREATE UNIQUE INDEX "ContractDependency_contractPk_kind_targetId_key" ON "ContractDependency"("contractPk", "kind", "targetId");

-- CreateIndex
CREATE INDEX "ContractWatch_teamId_kind_target_idx" ON "ContractWatch"("teamId", "kind", "target");

-- CreateIndex
CREATE INDEX "StaleMark_teamId_idx" ON "StaleMark"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "StaleMark_seq_key" ON "StaleMark"("seq");

-- CreateIndex
CREATE INDEX "Message_teamId_recipient_id_idx" ON "Message"("teamId", "recipient", "id");

-- CreateIndex
CREATE INDEX "Message_teamId_recipient_archivedAt_id_idx" ON "Message"("teamId", "recipient", "archivedAt", "id");

-- CreateIndex
CREATE INDEX "Message_teamId_sender_createdAt_idx" ON "Message"("teamId", "sender", "createdAt");

-- CreateIndex
CREATE INDEX "Pipeline_teamId_status_idx" ON "Pipeline"("teamId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "Pipeline_teamId_id_key" ON "Pipeline"("teamId", "id");

-- CreateIndex
CREATE INDEX "PipelineExecution_pipelinePk_ruleIndex_at_idx" ON "PipelineExecution"("pipelinePk", "ruleIndex", "at");

-- CreateIndex
CREATE UNIQUE INDEX "PipelineExecution_pipelinePk_ruleIndex_eventId_key" ON "PipelineExecution"("pipelinePk", "ruleIndex", "eventId");

-- CreateIndex
CREATE UNIQUE INDEX "Snapshot_teamId_id_key" ON "Snapshot"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Session_name_key" ON "Session"("name");

-- CreateIndex
CREATE INDEX "Session_teamId_idx" ON "Session"("teamId");

-- CreateIndex
CREATE INDEX "Session_status_idx" ON "Session"("status");

-- CreateIndex
CREATE UNIQUE INDEX "Worktree_sessionPk_key" ON "Worktree"("sessionPk");

-- CreateIndex
CREATE INDEX "Worktree_teamId_idx" ON "Worktree"("teamId");

-- CreateIndex
CREATE UNIQUE INDEX "Worktree_repoDir_branch_key" ON "Worktree"("repoDir", "branch");

-- CreateIndex
CREATE INDEX "Interaction_teamId_endedAt_idx" ON "Interaction"("teamId", "endedAt");

-- CreateIndex
CREATE INDEX "Interaction_teamId_member_endedAt_idx" ON "Interaction"("teamId", "member", "endedAt");

-- CreateIndex
CREATE INDEX "Interaction_teamId_contractId_endedAt_idx" ON "Interaction"("teamId", "contractId", "endedAt");

-- CreateIndex
CREATE UNIQUE INDEX "Interaction_sessionPk_n_key" ON "Interaction"("sessionPk", "n");

-- CreateIndex
CREATE INDEX "TranscriptEntry_sessionPk_id_idx" ON "TranscriptEntry"("sessionPk", "id");

-- CreateIndex
CREATE INDEX "Approval_status_idx" ON "Approval"("status");

-- CreateIndex
CREATE INDEX "Approval_sessionPk_idx" ON "Approval"("sessionPk");

-- CreateIndex
CREATE INDEX "SafetyViolation_sessionPk_idx" ON "SafetyViolation"("sessionPk");

-- CreateIndex
CREATE INDEX "Decision_teamId_id_idx" ON "Decision"("teamId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Pattern_teamId_name_key" ON "Pattern"("teamId", "name");

-- CreateIndex
CREATE INDEX "Checkpoint_teamId_principal_id_idx" ON "Checkpoint"("teamId", "principal", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Budget_teamId_scope_target_key" ON "Budget"("teamId", "scope", "target");

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Token" ADD CONSTRAINT "Token_principal_fkey" FOREIGN KEY ("principal") REFERENCES "Principal"("name") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Artifact" ADD CONSTRAINT "Artifact_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ArtifactTag" ADD CONSTRAINT "ArtifactTag_artifactPk_fkey" FOREIGN KEY ("artifactPk") REFERENCES "Artifact"("pk") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ArtifactVersion" ADD CONSTRAINT "ArtifactVersion_artifactPk_fkey" FOREIGN KEY ("artifactPk") REFERENCES "Artifact"("pk") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LineageEdge" ADD CONSTRAINT "LineageEdge_fromSeq_fkey" FOREIGN KEY ("fromSeq") REFERENCES "ArtifactVersion"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LineageEdge" ADD CONSTRAINT "LineageEdge_toSeq_fkey" FOREIGN KEY ("toSeq") REFERENCES "ArtifactVersion"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ArtifactRead" ADD CONSTRAINT "ArtifactRead_seq_fkey" FOREIGN KEY ("seq") REFERENCES "ArtifactVersion"("seq") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ArtifactType" ADD CONSTRAINT "ArtifactType_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Contract" ADD CONSTRAINT "Contract_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContractDependency" ADD CONSTRAINT "ContractDependency_contractPk_fkey" FOREIGN KEY ("contractPk") REFERENCES "Contract"("pk") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ContractWatch" ADD CONSTRAINT "ContractWatch_contractPk_fkey" FOREIGN KEY ("contractPk") REFERENCES "Contract"("pk") ON DELETE CASCADE ON UPDATE CASCADE;
