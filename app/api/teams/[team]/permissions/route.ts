import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.teams.permissions, (s, actor, input) => s.teams.permissions(actor, input));
