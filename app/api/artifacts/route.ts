import { ListArtifactsInput, PublishArtifactInput } from "@/lib/api/artifacts.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ListArtifactsInput, (s, actor, input) => s.artifacts.list(actor, input));
export const POST = handle(PublishArtifactInput, (s, actor, input) => s.artifacts.publish(actor, input), { status: 201 });
