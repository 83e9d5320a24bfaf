/** Two hub processes on one fresh database (docs/hubs.md), for domain tests: hub-a and hub-b, both registered live. */
import { registerHub } from "../domain/hubs/hubs.service.ts";
import type { HubEvent } from "../events/types.ts";
import { hubOn, tempHub, type TempHub } from "./temp-hub.ts";

/** What a hub registers about itself, for a hub of this id. */
export const hubIdentity = (id: string) => ({ id, url: `http://127.0.0.1/${id}`, host: "test", pid: 1, dataDir: `/data/${id}`, version: "test" });

/** `events()`: what the three connections' buses published, in log order. */
export type TwoHubs = { base: TempHub; a: TempHub; b: TempHub; events(): HubEvent[]; close(): Promise<void> };

export async function twoHubs(): Promise<TwoHubs> {
  const base = await tempHub();
  const a = hubOn(base, "hub-a");
  const b = hubOn(base, "hub-b");
  await registerHub(a, hubIdentity("hub-a"));
  await registerHub(b, hubIdentity("hub-b"));
  return {
    base,
    a,
    b,
    events: () => [...a.events, ...b.events, ...base.events].sort((x, y) => x.id - y.id),
    async close() {
      await a.close();
      await b.close();
      await base.close();
    },
  };
}
