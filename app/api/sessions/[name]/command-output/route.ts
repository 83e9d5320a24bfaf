import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.worktrees.commandOutput, (s, actor, input) => s.worktrees.commandOutput(actor, input));
