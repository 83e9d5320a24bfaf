/**
 * Names of things (docs/domain.md#names). Ids never become filesystem paths; the rules keep them printable,
 * URL-safe and unambiguous in `id@vN` references.
 */
import { z } from "zod";

export const ID_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;
export const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

// In words, not as the pattern: a person reads them under a form's field (docs/dashboard.md#tables-and-forms).
const ID_RULE = "must be lowercase letters, digits, '.', '_' or '-', starting with a letter or digit, at most 128 characters (such as 'build-api')";
const NAME_RULE = "must be letters, digits, '.', '_' or '-', starting with a letter or digit, at most 128 characters (such as 'db-dev')";

/** Artifact, contract, pipeline and snapshot ids. */
export const EntityId = z.string({ error: "must be a string" }).regex(ID_PATTERN, { error: ID_RULE });
/** Teams, members (assignees) and sessions may also use uppercase letters. */
export const MemberName = z.string({ error: "must be a string" }).regex(NAME_PATTERN, { error: NAME_RULE });
export const TeamId = MemberName;

export const DEFAULT_TEAM = "default";

/** Artifact type names. */
export const TypeName = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, {
  error: "must be a type name: lowercase letters, digits and '-', starting with a letter, at most 64 characters",
});
