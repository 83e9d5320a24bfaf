import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.teams.demo, (s, actor, input) => s.teams.demo(actor, input));
