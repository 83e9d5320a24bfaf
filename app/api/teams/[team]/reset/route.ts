import { TeamResetInput } from "@/lib/api/gate.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(TeamResetInput, (s, actor, input) => s.gate.reset(actor, input));
