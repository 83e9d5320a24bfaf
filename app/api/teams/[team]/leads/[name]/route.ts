import { LeadRefInput } from "@/lib/api/leads.ts";
import { handle } from "@/server/http/handle.ts";

export const DELETE = handle(LeadRefInput, (s, actor, input) => s.leads.revoke(actor, input));
