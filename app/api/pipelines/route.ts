import { CreatePipelineInput } from "@/lib/api/pipelines.ts";
import { TeamRefInput } from "@/lib/api/teams.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(TeamRefInput, (s, actor, input) => s.pipelines.list(actor, input));
export const POST = handle(CreatePipelineInput, (s, actor, input) => s.pipelines.create(actor, input), { status: 201 });
