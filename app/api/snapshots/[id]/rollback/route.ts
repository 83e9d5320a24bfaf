import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(api.snapshots.rollback, (s, actor, input) => s.snapshots.rollback(actor, input));
