import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
/** The team's budgets with what each has spent in its window (`?team=&scope=`). */
export const GET = handle(api.budgets.list, (s, actor, input) => s.budgets.list(actor, input));
/** Sets (creates or changes) one budget; a change lets turns waiting as `blocked: budget` start. */
export const PUT = handle(api.budgets.set, (s, actor, input) => s.budgets.set(actor, input));
