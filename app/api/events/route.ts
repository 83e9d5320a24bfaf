import { ListEventsInput } from "@/lib/api/teams.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListEventsInput, (s, actor, input) => s.events.list(actor, input));
