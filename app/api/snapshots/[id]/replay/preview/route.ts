import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

/** What the replay would do, written nothing: POST because the overrides travel in the body. */
export const POST = handle(api.snapshots.replayPreview, (s, actor, input) => s.snapshots.replayPreview(actor, input));
