import { TeamRefInput } from "@/lib/api/teams.ts";
import { LeadRefInput } from "@/lib/api/leads.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(TeamRefInput, (s, actor, input) => s.leads.list(actor, input));
export const POST = handle(LeadRefInput, (s, actor, input) => s.leads.grant(actor, input), { status: 201 });
