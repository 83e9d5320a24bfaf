-- CreateTable
CREATE TABLE "Wisdom" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "rationale" TEXT NOT NULL DEFAULT '',
    "alternatives" TEXT NOT NULL DEFAULT '[]',
    "examples" TEXT NOT NULL DEFAULT '[]',
    "related" TEXT NOT NULL DEFAULT '{"artifacts":[],"contracts":[]}',
    "author" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "WisdomLink" (
    "wisdomId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,

    PRIMARY KEY ("wisdomId", "kind", "ref")
);

-- CreateTable
CREATE TABLE "StateUpdate" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "member" TEXT NOT NULL,
    "role" TEXT NOT NULL DEFAULT '',
    "status" TEXT NOT NULL,
    "task" TEXT NOT NULL,
    "refArtifact" TEXT,
    "refVersion" INTEGER,
    "keyFindings" TEXT NOT NULL DEFAULT '[]',
    "decisions" TEXT NOT NULL DEFAULT '[]',
    "filesModified" TEXT NOT NULL DEFAULT '[]',
    "verification" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "archivedAt" DATETIME
);

-- CreateTable
CREATE TABLE "Exploration" (
    "id" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "teamId" TEXT NOT NULL,
    "angle" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "result" TEXT NOT NULL,
    "refArtifact" TEXT,
    "refVersion" INTEGER,
    "author" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "archivedAt" DATETIME
);

-- CreateIndex
CREATE INDEX "Wisdom_teamId_id_idx" ON "Wisdom"("teamId", "id");

-- CreateIndex
CREATE INDEX "Wisdom_teamId_kind_title_id_idx" ON "Wisdom"("teamId", "kind", "title", "id");

-- CreateIndex
CREATE INDEX "WisdomLink_kind_ref_idx" ON "WisdomLink"("kind", "ref");

-- CreateIndex
CREATE INDEX "StateUpdate_teamId_member_id_idx" ON "StateUpdate"("teamId", "member", "id");

-- CreateIndex
CREATE INDEX "Exploration_teamId_angle_id_idx" ON "Exploration"("teamId", "angle", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Exploration_teamId_angle_revision_key" ON "Exploration"("teamId", "angle", "revision");

-- The decision journal and the pattern registry become wisdom's `decision` and `convention` kinds (docs/knowledge.md#wisdom).
-- Decisions keep their ids, so `decision:<id>` subjects in the event log and `--after` cursors still name them.
INSERT INTO "Wisdom" ("id", "teamId", "kind", "title", "body", "rationale", "alternatives", "related", "author", "createdAt")
SELECT "id", "teamId", 'decision', "title", "decision", "rationale", "alternatives",
       '{"artifacts":' || COALESCE(json_extract("related", '$.artifacts'), '[]') || ',"contracts":' || COALESCE(json_extract("related", '$.contracts'), '[]') || '}',
       "author", "createdAt"
FROM "Decision" ORDER BY "id";

INSERT INTO "WisdomLink" ("wisdomId", "kind", "ref")
SELECT DISTINCT d."id", 'artifact', a."value" FROM "Decision" d, json_each(d."related", '$.artifacts') a;
INSERT INTO "WisdomLink" ("wisdomId", "kind", "ref")
SELECT DISTINCT d."id", 'contract', c."value" FROM "Decision" d, json_each(d."related", '$.contracts') c;

-- The registry kept only a pattern's current text: it becomes one convention entry, written when that text was.
INSERT INTO "Wisdom" ("teamId", "kind", "title", "body", "examples", "author", "createdAt")
SELECT "teamId", 'convention', "name", "description", "examples", "author", "updatedAt"
FROM "Pattern" ORDER BY "updatedAt", "pk";

-- DropTable
DROP TABLE "Decision";

-- DropTable
DROP TABLE "Pattern";
