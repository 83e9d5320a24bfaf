import { z } from "zod";
import { handle } from "@/server/http/handle.ts";

export const dynamic = "force-dynamic";
export const GET = handle(z.object({}), (s) => s.health());
