import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

// A read is recorded (docs/domain.md#reads), so this GET writes; it is never cached.
export const dynamic = "force-dynamic";
export const GET = handle(api.artifacts.get, (s, actor, input) => s.artifacts.get(actor, input));
