import { z } from "zod";
import { MemberName } from "../ids.ts";
import { IsoDate } from "./endpoint.ts";

export const CreateTokenInput = z.object({
  name: MemberName,
  kind: z.enum(["member", "agent"]).default("member"),
  // The hub labels the tokens it issues to supervised sessions this way; they identify the session.
  label: z
    .string()
    .max(200)
    .refine((l) => !l.startsWith("session:"), { error: "labels starting with 'session:' are reserved for the hub's own session tokens" })
    .optional(),
});
export const RevokeTokensInput = z.object({ name: MemberName, label: z.string().max(200).optional() });

// ── Responses ──

export const PrincipalKind = z.enum(["operator", "member", "agent", "system"]);
export type PrincipalKind = z.output<typeof PrincipalKind>;

/** The operator token and the file it was read from. */
export const OperatorToken = z.object({ token: z.string(), file: z.string() });
export type OperatorToken = z.output<typeof OperatorToken>;

/** A token that still works; its secret is never stored, so never shown again. */
export const TokenView = z.object({ principal: z.string(), kind: PrincipalKind, label: z.string(), createdAt: IsoDate });
export type TokenView = z.output<typeof TokenView>;

/** A new token with its secret: the only time the secret is shown. */
export const IssuedToken = z.object({ principal: z.string(), kind: z.enum(["member", "agent"]), token: z.string(), label: z.string() });
export type IssuedToken = z.output<typeof IssuedToken>;

export const TokensRevoked = z.object({ revoked: z.number().int() });
