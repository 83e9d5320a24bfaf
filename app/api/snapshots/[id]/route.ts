import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(api.snapshots.get, (s, actor, input) => s.snapshots.get(actor, input));
export const DELETE = handle(api.snapshots.delete, (s, actor, input) => s.snapshots.delete(actor, input));
