import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.artifacts.types, (s, actor, input) => s.artifacts.types(actor, input));
export const POST = handle(api.artifacts.registerType, (s, actor, input) => s.artifacts.registerType(actor, input));
