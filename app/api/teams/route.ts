import { z } from "zod";
import { CreateTeamInput } from "@/lib/api/teams.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(z.object({}), (s) => s.teams.list());
export const POST = handle(CreateTeamInput, (s, actor, input) => s.teams.create(actor, input), { status: 201 });
