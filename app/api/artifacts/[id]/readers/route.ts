import { ArtifactRefInput } from "@/lib/api/artifacts.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(ArtifactRefInput, (s, actor, input) => s.artifacts.readers(actor, input));
