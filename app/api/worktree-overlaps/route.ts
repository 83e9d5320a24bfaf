import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.worktrees.overlaps, (s, actor, input) => s.worktrees.overlaps(actor, input));
