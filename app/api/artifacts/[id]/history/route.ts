import { HistoryInput } from "@/lib/api/artifacts.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(HistoryInput, (s, actor, input) => s.artifacts.history(actor, input));
