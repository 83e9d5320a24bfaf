import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
/** The budgets that apply to the caller: its team's, its own, its contracts'. */
export const GET = handle(api.budgets.own, (s, actor, input) => s.budgets.own(actor, input));
