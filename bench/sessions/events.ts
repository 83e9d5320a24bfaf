/** Waiting for a hub's events over /ws, as the dashboard does. */
import WebSocket from "ws";
import type { WireEvent } from "../../lib/ws.ts";

export type EventStream = { next(match: (e: WireEvent) => boolean, timeoutMs?: number): Promise<WireEvent>; close(): void };

export async function eventStream(hubUrl: string): Promise<EventStream> {
  const socket = new WebSocket(`${hubUrl.replace(/^http/, "ws")}/ws`);
  const waiters = new Set<{ match: (e: WireEvent) => boolean; resolve: (e: WireEvent) => void }>();
  socket.on("message", (data) => {
    const msg = JSON.parse(String(data)) as { type: string; payload: WireEvent };
    if (msg.type !== "event") return;
    for (const w of waiters) {
      if (!w.match(msg.payload)) continue;
      waiters.delete(w);
      w.resolve(msg.payload);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once("open", () => {
      socket.send(JSON.stringify({ v: 1, type: "subscribe", team: null, payload: { teams: [] } }));
      resolve();
    });
    socket.once("error", reject);
  });
  await new Promise((r) => setTimeout(r, 50));
  return {
    next(match, timeoutMs = 120_000) {
      return new Promise((resolve, reject) => {
        const w = { match, resolve };
        waiters.add(w);
        setTimeout(() => waiters.delete(w) && reject(new Error("no matching event in time")), timeoutMs).unref();
      });
    },
    close: () => socket.close(),
  };
}
