/** Tokens and lead grants (docs/security.md#capabilities): who may act, and on which teams' team-wide operations. */
import type { Operations } from "../operations.ts";
import { authenticate, createToken, listTokens, readOperatorToken, revokeTokens } from "../domain/auth/tokens.service.ts";
import { grantLead, listLeads, revokeLead } from "../domain/auth/grants.service.ts";
import type { ServiceContext } from "./context.ts";

export const authServices = ({ deps, info }: ServiceContext) =>
  ({
    /** The doors' own step before any operation: the bearer token to its principal (refused when unknown or revoked). */
    authenticate: (token: string) => authenticate(deps, token),
    createToken: (a, i) => createToken(deps, a, i),
    revoke: (a, i) => revokeTokens(deps, a, i),
    list: (a) => listTokens(deps, a),
    operatorToken: (a) => readOperatorToken(deps, a, info.dataDir),
  }) satisfies Operations<"auth"> & { authenticate: unknown };

export const leadServices = ({ deps }: ServiceContext) =>
  ({
    grant: (a, i) => grantLead(deps, a, i),
    revoke: (a, i) => revokeLead(deps, a, i),
    list: (a, i) => listLeads(deps, a, i),
  }) satisfies Operations<"leads">;
