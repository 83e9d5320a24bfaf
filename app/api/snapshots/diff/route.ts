import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.snapshots.diff, (s, actor, input) => s.snapshots.diff(actor, input));
