import { ReplayInput } from "@/lib/api/snapshots.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(ReplayInput, (s, actor, input) => s.snapshots.replay(actor, input));
