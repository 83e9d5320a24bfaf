import { z } from "zod";
import { EntityId, MemberName, TypeName } from "../ids.ts";
import { Cursor, Flag, JsonObject, JsonValue, Limit, TeamParam } from "./common.ts";
import { Effect } from "./contracts.ts";
import { IsoDate } from "./endpoint.ts";
import { CodeRef } from "./worktrees.ts";

export { TypeName };

/** `rolled_back`: withdrawn by a rollback or a team reset; never deleted (docs/domain.md#artifacts). */
export const VersionStatus = z.enum(["active", "rolled_back"]);
export type VersionStatus = z.infer<typeof VersionStatus>;

export const Tag = z.string().min(1, { error: "must not be empty" }).max(64, { error: "must be at most 64 characters" });
/** `id@vN` pins a version; a bare `id` means the latest version at publish time (stored pinned). */
export const VersionRef = z.string().regex(/^[a-z0-9][a-z0-9._-]{0,127}(@v[1-9][0-9]{0,8})?$/, {
  error: "must be an artifact reference 'id' or 'id@vN' (N ≥ 1)",
});

export const PublishArtifactInput = z.object({
  team: TeamParam,
  id: EntityId,
  type: TypeName,
  name: z.string().min(1).max(200).optional(),
  data: JsonValue,
  summary: z.string().max(2000).optional(),
  tags: z.array(Tag).max(32).optional(),
  derivedFrom: z.array(VersionRef).max(100).optional(),
  contractId: EntityId.optional(),
  /** Optimistic concurrency: the latest version you expect now (0: the artifact must not exist yet). */
  expectedVersion: z.number().int().min(0).optional(),
});
export type PublishArtifactInput = z.infer<typeof PublishArtifactInput>;

export const GetArtifactInput = z.object({
  team: TeamParam,
  id: EntityId,
  version: z.number({ error: "must be a number" }).int({ error: "must be a whole number" }).min(1).optional(),
});
export type GetArtifactInput = z.infer<typeof GetArtifactInput>;

export const ArtifactRefInput = z.object({ team: TeamParam, id: EntityId });
export type ArtifactRefInput = z.infer<typeof ArtifactRefInput>;

export const HistoryInput = ArtifactRefInput.extend({ includeData: Flag.default(false) });
export type HistoryInput = z.infer<typeof HistoryInput>;

export const ListArtifactsInput = z.object({
  team: TeamParam,
  type: TypeName.optional(),
  publisher: MemberName.optional(),
  tag: Tag.optional(),
  status: VersionStatus.optional(),
  /** Only artifacts whose current version is stale (docs/domain.md#staleness). */
  stale: Flag.default(false),
  /** Include artifacts that team_reset archived. */
  archived: Flag.default(false),
  limit: Limit,
  cursor: Cursor,
});
export type ListArtifactsInput = z.infer<typeof ListArtifactsInput>;

export const RegisterTypeInput = z.object({
  team: TeamParam,
  name: TypeName,
  jsonSchema: z.record(z.string(), z.unknown(), { error: "must be a JSON Schema object" }),
});
export type RegisterTypeInput = z.infer<typeof RegisterTypeInput>;

// ── Responses ──

/** One version of an artifact; `data` only where the call asked for it. */
export const VersionView = z.object({
  artifactId: z.string(),
  version: z.number().int(),
  seq: z.number().int(),
  type: z.string(),
  name: z.string(),
  status: VersionStatus,
  summary: z.string(),
  size: z.number().int(),
  publisher: z.string(),
  sessionId: z.string().nullable(),
  contractId: z.string().nullable(),
  derivedFrom: z.array(z.string()),
  createdAt: IsoDate,
  /** The publisher's work tree at publish time; null for a person or a session without a work tree. */
  code: CodeRef.nullable(),
  data: z.unknown().optional(),
});
export type VersionView = z.output<typeof VersionView>;

/** The new version and the contract changes it caused (resolution runs in the same transaction). */
export const PublishResult = VersionView.extend({ effects: z.array(Effect) });
export type PublishResult = z.output<typeof PublishResult>;

/**
 * An artifact as listed: `latestVersion` is the highest ever published, `currentVersion` the newest
 * active one (null when all were rolled back), `status` and `publisher` are those of the latest.
 */
export const ArtifactView = z.object({
  id: z.string(),
  team: z.string(),
  type: z.string(),
  name: z.string(),
  tags: z.array(z.string()),
  latestVersion: z.number().int(),
  currentVersion: z.number().int().nullable(),
  status: VersionStatus,
  publisher: z.string().nullable(),
  archived: z.boolean(),
  createdAt: IsoDate,
  updatedAt: IsoDate,
});
export type ArtifactView = z.output<typeof ArtifactView>;

export const ArtifactPage = z.object({ items: z.array(ArtifactView), nextCursor: z.number().int().nullable() });
export type ArtifactPage = z.output<typeof ArtifactPage>;

export const ArtifactHistory = z.object({ artifact: ArtifactView, versions: z.array(VersionView) });
export type ArtifactHistory = z.output<typeof ArtifactHistory>;

export const ReadRecord = z.object({ reader: z.string(), version: z.number().int(), at: IsoDate });
export type ReadRecord = z.output<typeof ReadRecord>;

export const ReaderSummary = z.object({ reader: z.string(), reads: z.number().int(), lastVersion: z.number().int(), lastAt: IsoDate });
export type ReaderSummary = z.output<typeof ReaderSummary>;

/** Per reader and read by read, newest first (the last 500 reads). */
export const ArtifactReaders = z.object({ readers: z.array(ReaderSummary), reads: z.array(ReadRecord) });
export type ArtifactReaders = z.output<typeof ArtifactReaders>;

export const TypeInfo = z.object({ name: z.string(), builtIn: z.boolean(), jsonSchema: JsonObject });
export type TypeInfo = z.output<typeof TypeInfo>;

/** The well-known types first, then the team's registered ones by name. */
export const TypeList = z.array(TypeInfo);
