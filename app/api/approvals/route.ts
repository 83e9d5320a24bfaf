import { ListApprovalsInput } from "@/lib/api/sessions.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListApprovalsInput, (s, actor, input) => s.sessions.approvals(actor, input));
