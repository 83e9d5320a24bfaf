import { UpsertMemberInput } from "@/lib/api/roster.ts";
import { TeamRefInput } from "@/lib/api/teams.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(TeamRefInput, (s, actor, input) => s.roster.list(actor, input));
export const POST = handle(UpsertMemberInput, (s, actor, input) => s.roster.upsert(actor, input));
