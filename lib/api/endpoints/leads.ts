import { z } from "zod";
import { endpoint } from "../endpoint.ts";
import { LeadRefInput, LeadRevoked, LeadView } from "../leads.ts";
import { TeamRefInput } from "../teams.ts";

export const leads = {
  list: endpoint({ method: "GET", path: "/teams/:team/leads", input: TeamRefInput, output: z.array(LeadView) }),
  grant: endpoint({ method: "POST", path: "/teams/:team/leads", input: LeadRefInput, output: LeadView, status: 201 }),
  revoke: endpoint({ method: "DELETE", path: "/teams/:team/leads/:name", input: LeadRefInput, output: LeadRevoked }),
};
