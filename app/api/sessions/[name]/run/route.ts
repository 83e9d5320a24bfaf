import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const POST = handle(api.worktrees.run, (s, actor, input) => s.worktrees.run(actor, input));
