-- CreateTable
CREATE TABLE "Team" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" DATETIME,
    "settings" TEXT NOT NULL DEFAULT '{}'
);

-- CreateTable
CREATE TABLE "Event" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT,
    "type" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "causedBy" INTEGER,
    "depth" INTEGER NOT NULL DEFAULT 0,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Event_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Principal" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "kind" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "Token" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "principal" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revokedAt" DATETIME,
    CONSTRAINT "Token_principal_fkey" FOREIGN KEY ("principal") REFERENCES "Principal" ("name") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Artifact" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "latestVersion" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "archivedAt" DATETIME,
    CONSTRAINT "Artifact_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ArtifactTag" (
    "artifactPk" INTEGER NOT NULL,
    "tag" TEXT NOT NULL,

    PRIMARY KEY ("artifactPk", "tag"),
    CONSTRAINT "ArtifactTag_artifactPk_fkey" FOREIGN KEY ("artifactPk") REFERENCES "Artifact" ("pk") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ArtifactVersion" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "artifactPk" INTEGER NOT NULL,
    "version" INTEGER NOT NULL,
    "data" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "summary" TEXT NOT NULL DEFAULT '',
    "publisher" TEXT NOT NULL,
    "sessionId" TEXT,
    "contractId" TEXT,
    "status" TEXT NOT NULL DEFAULT 'active',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ArtifactVersion_artifactPk_fkey" FOREIGN KEY ("artifactPk") REFERENCES "Artifact" ("pk") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LineageEdge" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "fromSeq" INTEGER NOT NULL,
    "toSeq" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "contractId" TEXT,
    CONSTRAINT "LineageEdge_fromSeq_fkey" FOREIGN KEY ("fromSeq") REFERENCES "ArtifactVersion" ("seq") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "LineageEdge_toSeq_fkey" FOREIGN KEY ("toSeq") REFERENCES "ArtifactVersion" ("seq") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ArtifactRead" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "seq" INTEGER NOT NULL,
    "reader" TEXT NOT NULL,
    "at" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "ArtifactRead_seq_fkey" FOREIGN KEY ("seq") REFERENCES "ArtifactVersion" ("seq") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ArtifactType" (
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "jsonSchema" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("teamId", "name"),
    CONSTRAINT "ArtifactType_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Contract" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "deadlineAt" DATETIME,
    "maxRetries" INTEGER NOT NULL DEFAULT 3,
    "retryCount" INTEGER NOT NULL DEFAULT 0,
    "status" TEXT NOT NULL,
    "statusReason" TEXT,
    "windowStartSeq" INTEGER NOT NULL DEFAULT 0,
    "pinnedInputs" TEXT,
    "outputs" TEXT,
    "startedAt" DATETIME,
    "completedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Contract_teamId_fkey" FOREIGN KEY ("teamId") REFERENCES "Team" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ContractDependency" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "contractPk" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "targetId" TEXT NOT NULL,
    "minVersion" INTEGER,
    CONSTRAINT "ContractDependency_contractPk_fkey" FOREIGN KEY ("contractPk") REFERENCES "Contract" ("pk") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ContractWatch" (
    "contractPk" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "target" TEXT NOT NULL,

    PRIMARY KEY ("contractPk", "kind", "target"),
    CONSTRAINT "ContractWatch_contractPk_fkey" FOREIGN KEY ("contractPk") REFERENCES "Contract" ("pk") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "StaleMark" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "seq" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "markedBy" TEXT NOT NULL,
    "causedBy" INTEGER,
    "at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Member" (
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL DEFAULT 'idle',
    "currentTask" TEXT,
    "sessionId" TEXT,
    "joinedAt" DATETIME NOT NULL,
    "lastSeen" DATETIME NOT NULL,

    PRIMARY KEY ("teamId", "name")
);

-- CreateTable
CREATE TABLE "Message" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "sender" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "replyTo" INTEGER,
    "createdAt" DATETIME NOT NULL,
    "readAt" DATETIME,
    "archivedAt" DATETIME,
    "archivedBy" TEXT
);

-- CreateTable
CREATE TABLE "ChatBlock" (
    "teamId" TEXT NOT NULL,
    "a" TEXT NOT NULL,
    "b" TEXT NOT NULL,
    "until" DATETIME NOT NULL,

    PRIMARY KEY ("teamId", "a", "b")
);

-- CreateTable
CREATE TABLE "Pipeline" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "rules" TEXT NOT NULL,
    "triggers" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "fromEventId" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PipelineExecution" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "pipelinePk" INTEGER NOT NULL,
    "ruleIndex" INTEGER NOT NULL,
    "eventId" INTEGER NOT NULL,
    "teamId" TEXT NOT NULL,
    "conditionResult" BOOLEAN,
    "action" TEXT NOT NULL,
    "outcome" TEXT NOT NULL,
    "detail" TEXT,
    "error" TEXT,
    "durationMs" REAL NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PipelineCursor" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "lastEventId" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "Snapshot" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "label" TEXT NOT NULL DEFAULT '',
    "kind" TEXT NOT NULL,
    "createdBy" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "maxSeq" INTEGER NOT NULL,
    "lastEventId" INTEGER NOT NULL,
    "state" BLOB NOT NULL,
    "size" INTEGER NOT NULL
);

-- CreateTable
CREATE TABLE "GateState" (
    "teamId" TEXT NOT NULL PRIMARY KEY,
    "gateCount" INTEGER NOT NULL DEFAULT 0,
    "gatesAtLastBatch" INTEGER NOT NULL DEFAULT 0,
    "spawnBatchCount" INTEGER NOT NULL DEFAULT 0,
    "lastSpawnAt" DATETIME,
    "lastGateAt" DATETIME
);

-- CreateTable
CREATE TABLE "Session" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
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
    "maxBudgetUsd" REAL,
    "safety" TEXT NOT NULL DEFAULT '{}',
    "principal" TEXT,
    "pid" INTEGER,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "interactions" INTEGER NOT NULL DEFAULT 0,
    "lastOutput" TEXT,
    "lastError" TEXT,
    "exitReason" TEXT,
    "stalledAt" DATETIME,
    "parent" TEXT,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    "lastEventAt" DATETIME
);

-- CreateTable
CREATE TABLE "Interaction" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sessionPk" INTEGER NOT NULL,
    "n" INTEGER NOT NULL,
    "prompt" TEXT NOT NULL,
    "response" TEXT,
    "status" TEXT NOT NULL,
    "isError" BOOLEAN NOT NULL DEFAULT false,
    "resultSubtype" TEXT,
    "costUsd" REAL NOT NULL DEFAULT 0,
    "turns" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER,
    "toolsUsed" TEXT NOT NULL DEFAULT '[]',
    "permissionDenials" TEXT NOT NULL DEFAULT '[]',
    "empty" BOOLEAN NOT NULL DEFAULT false,
    "startedAt" DATETIME NOT NULL,
    "endedAt" DATETIME
);

-- CreateTable
CREATE TABLE "TranscriptEntry" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sessionPk" INTEGER NOT NULL,
    "interactionId" INTEGER,
    "at" DATETIME NOT NULL,
    "direction" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "subtype" TEXT,
    "payload" TEXT NOT NULL
);

-- CreateTable
CREATE TABLE "Approval" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sessionPk" INTEGER NOT NULL,
    "teamId" TEXT,
    "requestId" TEXT NOT NULL,
    "toolName" TEXT NOT NULL,
    "input" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "decidedBy" TEXT,
    "note" TEXT,
    "createdAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "decidedAt" DATETIME
);

-- CreateTable
CREATE TABLE "SafetyViolation" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "sessionPk" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Decision" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "decision" TEXT NOT NULL,
    "rationale" TEXT NOT NULL DEFAULT '',
    "alternatives" TEXT NOT NULL DEFAULT '[]',
    "related" TEXT NOT NULL DEFAULT '{}',
    "author" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Pattern" (
    "pk" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL,
    "examples" TEXT NOT NULL DEFAULT '[]',
    "author" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "Checkpoint" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "principal" TEXT NOT NULL,
    "claudeSessionId" TEXT,
    "kind" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT '{}',
    "lastEventId" INTEGER NOT NULL,
    "at" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Event_teamId_id_idx" ON "Event"("teamId", "id");

-- CreateIndex
CREATE INDEX "Event_type_id_idx" ON "Event"("type", "id");

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
