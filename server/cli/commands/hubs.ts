import type { Command } from "commander";
import { action, type Ctx } from "../action.ts";
import { table } from "../format.ts";

/** Seconds since a date, for a heartbeat's age. */
const ago = (d: Date) => `${Math.max(0, Math.round((Date.now() - d.getTime()) / 1000))} s ago`;

export function register(program: Command) {
  program
    .command("hubs")
    .description("the hubs sharing this database, their health and how many sessions each runs (operator only)")
    .action(
      action(
        ({ hub }: Ctx<object>) => hub.hubs.list(),
        (r) =>
          table(
            r.map((h) => ({ ...h, id: h.self ? `${h.id} (this hub)` : h.id, heartbeat: ago(h.heartbeatAt), sessions: h.liveSessions })),
            ["id", "status", "url", "heartbeat", "sessions", "version"],
          ),
      ),
    );
}
