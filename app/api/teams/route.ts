import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.teams.list, (s) => s.teams.list());
export const POST = handle(api.teams.create, (s, actor, input) => s.teams.create(actor, input));
