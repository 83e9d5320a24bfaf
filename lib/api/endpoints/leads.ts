import { endpoint, Unchecked } from "../endpoint.ts";
import { LeadRefInput } from "../leads.ts";
import { TeamRefInput } from "../teams.ts";

export const leads = {
  list: endpoint({ method: "GET", path: "/teams/:team/leads", input: TeamRefInput, output: Unchecked }),
  grant: endpoint({ method: "POST", path: "/teams/:team/leads", input: LeadRefInput, output: Unchecked, status: 201 }),
  revoke: endpoint({ method: "DELETE", path: "/teams/:team/leads/:name", input: LeadRefInput, output: Unchecked }),
};
