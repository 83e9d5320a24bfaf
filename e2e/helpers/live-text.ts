/**
 * /ws clients that follow session transcripts, and the text of a message in flight as the dashboard would show
 * it from what such a client received: a `soFar` delta replaces it, a piece is appended, the stored line ends it.
 */
import { expect } from "vitest";
import { endsTextInFlight, WS_VERSION } from "../../lib/ws.ts";
import { openSocket, type Socket } from "./web-doors.ts";

/** An open socket that has had its `hello` (a subscribe sent now is read by the hub at once). */
export async function connected(hub: { url: string }, token?: string): Promise<Socket> {
  const s = openSocket(hub, { token });
  expect((await s.opened).status).toBe(101);
  await s.next("hello");
  return s;
}

export const subscribe = (s: Socket, sessions: string[], since?: number) =>
  s.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: [], sessions, since } });

/** A socket following `sessions` (all teams), once the hub says it is subscribed. */
export async function following(hub: { url: string }, sessions: string[], token?: string): Promise<Socket> {
  const s = await connected(hub, token);
  subscribe(s, sessions);
  await s.next("subscribed");
  return s;
}

export const textDeltas = (s: Socket, session: string) =>
  s.inbox.flatMap((m) => (m.type === "transcript_delta" && m.payload.session === session ? [m.payload] : []));

export function textInFlight(s: Socket, session: string): string {
  let text = "";
  for (const m of s.inbox) {
    if (m.type === "transcript_delta" && m.payload.session === session) text = m.payload.soFar ? m.payload.text : text + m.payload.text;
    if (m.type === "transcript" && m.payload.session === session && endsTextInFlight(m.payload.entry)) text = "";
  }
  return text;
}
