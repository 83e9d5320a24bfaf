import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.teams.archive, (s, actor, input) => s.teams.archive(actor, input));
