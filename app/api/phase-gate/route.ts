import { PhaseGateInput } from "@/lib/api/gate.ts";
import { handle } from "@/server/http/handle.ts";

export const POST = handle(PhaseGateInput, (s, actor, input) => s.gate.check(actor, input));
