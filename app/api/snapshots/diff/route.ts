import { DiffInput } from "@/lib/api/snapshots.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(DiffInput, (s, actor, input) => s.snapshots.diff(actor, input));
