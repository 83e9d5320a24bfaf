import { GetArtifactInput } from "@/lib/api/artifacts.ts";
import { handle } from "@/server/http/handle.ts";

// A read is recorded (docs/domain.md#reads), so this GET writes; it is never cached.
export const dynamic = "force-dynamic";
export const GET = handle(GetArtifactInput, (s, actor, input) => s.artifacts.get(actor, input));
