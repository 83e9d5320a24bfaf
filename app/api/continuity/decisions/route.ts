import { ListDecisionsInput, RecordDecisionInput } from "@/lib/api/continuity.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListDecisionsInput, (s, actor, input) => s.continuity.listDecisions(actor, input));
export const POST = handle(RecordDecisionInput, (s, actor, input) => s.continuity.recordDecision(actor, input), { status: 201 });
