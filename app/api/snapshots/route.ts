import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.snapshots.list, (s, actor, input) => s.snapshots.list(actor, input));
export const POST = handle(api.snapshots.take, (s, actor, input) => s.snapshots.take(actor, input));
