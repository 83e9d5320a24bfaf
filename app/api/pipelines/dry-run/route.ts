import { api } from "@/lib/api/endpoints/index.ts";
import { handle } from "@/server/http/handle.ts";

// A dry run writes nothing; it is a POST only because the rule travels in the body.
export const POST = handle(api.pipelines.dryRun, (s, actor, input) => s.pipelines.dryRun(actor, input));
