import { z } from "zod";
import { EntityId, MemberName } from "../ids.ts";
import { Cursor, Flag, JsonValue, Limit, TeamParam } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

export const TypeName = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, {
  error: "must be a type name: lowercase letters, digits and '-', starting with a letter, at most 64 characters",
});
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
  status: z.enum(["active", "rolled_back"]).optional(),
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
  status: z.string(),
  summary: z.string(),
  size: z.number().int(),
  publisher: z.string(),
  sessionId: z.string().nullable(),
  contractId: z.string().nullable(),
  derivedFrom: z.array(z.string()),
  createdAt: IsoDate,
  data: z.unknown().optional(),
});
export type VersionView = z.output<typeof VersionView>;
