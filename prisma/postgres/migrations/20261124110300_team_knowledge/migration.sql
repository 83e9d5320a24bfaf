-- CreateTable
CREATE TABLE "Wisdom" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "body" TEXT NOT NULL,
    "rationale" TEXT NOT NULL DEFAULT '',
    "alternatives" TEXT NOT NULL DEFAULT '[]',
    "examples" TEXT NOT NULL DEFAULT '[]',
    "related" TEXT NOT NULL DEFAULT '{"artifacts":[],"contracts":[]}',
    "author" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Wisdom_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WisdomLink" (
    "wisdomId" INTEGER NOT NULL,
    "kind" TEXT NOT NULL,
    "ref" TEXT NOT NULL,

    CONSTRAINT "WisdomLink_pkey" PRIMARY KEY ("wisdomId","kind","ref")
);

-- CreateTable
CREATE TABLE "StateUpdate" (
    "id" SERIAL NOT NULL,
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
    "createdAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "StateUpdate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Exploration" (
    "id" SERIAL NOT NULL,
    "teamId" TEXT NOT NULL,
    "angle" TEXT NOT NULL,
    "revision" INTEGER NOT NULL,
    "result" TEXT NOT NULL,
    "refArtifact" TEXT,
    "refVersion" INTEGER,
    "author" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "archivedAt" TIMESTAMP(3),

    CONSTRAINT "Exploration_pkey" PRIMARY KEY ("id")
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

-- The decision journal and the pattern registry become wisdom's `decision` and `convention` kinds (docs/knowledge.md#wisdom),
-- as in the SQLite migration of the same name. Decisions keep their ids, so `decision:<id>` subjects in the event log and
-- `--after` cursors still name them, and the id sequence then moves past them.
INSERT INTO "Wisdom" ("id", "teamId", "kind", "title", "body", "rationale", "alternatives", "related", "author", "createdAt")
SELECT "id", "teamId", 'decision', "title", "decision", "rationale", "alternatives",
       jsonb_build_object('artifacts', COALESCE("related"::jsonb -> 'artifacts', '[]'::jsonb),
                          'contracts', COALESCE("related"::jsonb -> 'contracts', '[]'::jsonb))::text,
       "author", "createdAt"
FROM "Decision" ORDER BY "id";
SELECT setval(pg_get_serial_sequence('"Wisdom"', 'id'), COALESCE((SELECT MAX("id") FROM "Wisdom"), 0) + 1, false);

INSERT INTO "WisdomLink" ("wisdomId", "kind", "ref")
SELECT DISTINCT d."id", 'artifact', a."value" FROM "Decision" d, jsonb_array_elements_text(COALESCE(d."related"::jsonb -> 'artifacts', '[]'::jsonb)) AS a("value");
INSERT INTO "WisdomLink" ("wisdomId", "kind", "ref")
SELECT DISTINCT d."id", 'contract', c."value" FROM "Decision" d, jsonb_array_elements_text(COALESCE(d."related"::jsonb -> 'contracts', '[]'::jsonb)) AS c("value");

-- The registry kept only a pattern's current text, which becomes one convention entry, written when that text was.
INSERT INTO "Wisdom" ("teamId", "kind", "title", "body", "examples", "author", "createdAt")
SELECT "teamId", 'convention', "name", "description", "examples", "author", "updatedAt"
FROM "Pattern" ORDER BY "updatedAt", "pk";

-- DropTable
DROP TABLE "Decision";

-- DropTable
DROP TABLE "Pattern";
