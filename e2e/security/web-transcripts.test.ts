/**
 * Web side (docs/security.md#capabilities): read visibility of live transcripts: a member following every session on /ws
 * (sessions: ["*"]) gets no line of a session that is not theirs, while the operator gets them
 * all — with the real `claude` behind the fake Messages API producing the lines.
 */
import { afterAll, beforeAll, expect, vi } from "vitest";
import { WS_VERSION } from "../../lib/ws.ts";
import { directiveModel } from "../fake-anthropic/directives.ts";
import { dbSnapshot } from "../helpers/db-snapshot.ts";
import { api } from "../helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "../helpers/session-hub.ts";
import { attack } from "./attack.ts";
import { openSocket, type Socket } from "../helpers/web-doors.ts";

let sh: SessionHub;
let carolToken: string;
beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  carolToken = (await api(sh.hub, "POST", "/api/tokens", { name: "carol" })).body.token;
});
afterAll(async () => sh?.close());

async function following(token?: string): Promise<Socket> {
  const s = openSocket(sh.hub, { token });
  expect((await s.opened).status).toBe(101);
  await s.next("hello");
  s.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: [], sessions: ["*"] } });
  await s.next("subscribed");
  return s;
}

const linesOf = (s: Socket, session: string) =>
  s.inbox.filter((m) => (m.type === "transcript" || m.type === "transcript_delta") && m.payload.session === session);

attack(
  "a member following every session on /ws receives no transcript line of someone else's session",
  async () => {
    const operator = await following();
    const carol = await following(carolToken);
    const spawned = await api(sh.hub, "POST", "/api/sessions", { name: "secretive", prompt: "the launch codes are 1234" });
    expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
    await waitForSession(sh.hub, "secretive", (s) => s.interactions === 1 && s.status === "idle", 90_000);
    await vi.waitFor(
      () => {
        if (!linesOf(operator, "secretive").some((m) => JSON.stringify(m).includes("launch codes"))) throw new Error("the operator never saw the transcript");
      },
      { timeout: 10_000, interval: 50 },
    );
    // Anything pushed to carol would have been sent with the operator's copy; a round trip later it is here.
    const before = dbSnapshot(sh.hub.dbFile);
    carol.send({ v: WS_VERSION, type: "ping" });
    await carol.next("pong");
    expect(linesOf(carol, "secretive")).toEqual([]);
    expect(JSON.stringify(carol.inbox)).not.toContain("launch codes");
    expect(dbSnapshot(sh.hub.dbFile)).toEqual(before);
    operator.socket.close();
    carol.socket.close();
  },
  150_000,
);
