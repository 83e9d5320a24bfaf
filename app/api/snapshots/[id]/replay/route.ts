import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.snapshots.replay, (s, actor, input) => s.snapshots.replay(actor, input));
