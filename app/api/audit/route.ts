import { AuditInput } from "@/lib/api/lineage.ts";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(AuditInput, (s, actor, input) => s.lineage.audit(actor, input));
