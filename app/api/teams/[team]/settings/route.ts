import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.teams.settings, (s, actor, input) => s.teams.settings(actor, input));
export const PATCH = handle(api.teams.updateSettings, (s, actor, input) => s.teams.updateSettings(actor, input));
