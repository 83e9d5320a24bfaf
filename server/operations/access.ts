/** Tokens, lead grants and the hubs sharing the database: the operator's administration of who may act (docs/security.md#capabilities). */
import { createToken, listTokens, readOperatorToken, revokeTokens } from "../domain/auth/tokens.service.ts";
import { grantLead, listLeads, revokeLead } from "../domain/auth/grants.service.ts";
import { listHubs } from "../domain/hubs/hubs.service.ts";
import { area } from "./define.ts";
import { ADMINISTRATION } from "./fields.ts";

const none = { none: ADMINISTRATION };

export const auth = area("auth", {
  createToken: { may: "tokens.issue", serve: ({ deps }, a, i) => createToken(deps, a, i), mcp: none },
  revoke: { may: "tokens.revoke", serve: ({ deps }, a, i) => revokeTokens(deps, a, i), mcp: none },
  list: { may: "tokens.list", serve: ({ deps }, a) => listTokens(deps, a), mcp: none },
  operatorToken: { may: "tokens.read_operator", serve: ({ deps, info }, a) => readOperatorToken(deps, a, info.dataDir), mcp: none },
});

export const leads = area("leads", {
  grant: { may: "leads.grant", serve: ({ deps }, a, i) => grantLead(deps, a, i), mcp: none },
  revoke: { may: "leads.revoke", serve: ({ deps }, a, i) => revokeLead(deps, a, i), mcp: none },
  list: { may: "leads.list", serve: ({ deps }, a, i) => listLeads(deps, a, i), mcp: none },
});

/** The hubs sharing the database and their health (docs/hubs.md). */
export const hubs = area("hubs", {
  list: { may: "hubs.list", serve: ({ deps }, a) => listHubs(deps, a), mcp: none },
});
