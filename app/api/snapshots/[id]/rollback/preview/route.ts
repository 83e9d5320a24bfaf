import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

/** What the rollback would do, written nothing. */
export const POST = handle(api.snapshots.rollbackPreview, (s, actor, input) => s.snapshots.rollbackPreview(actor, input));
