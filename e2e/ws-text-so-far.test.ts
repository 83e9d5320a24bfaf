/**
 * /ws and the message in flight: a client that subscribes while the model is writing receives the text streamed
 * so far as one delta, then the live pieces — the whole message, nothing twice — even while its event replay is
 * being read. Only who may see the session gets it, and a process that ends mid-message voids it. The real
 * `claude` on the fake Messages API, which holds its stream where the test says (`@hold`), so nothing here
 * depends on timing.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { WS_VERSION } from "../lib/ws.ts";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { connected, following, subscribe, textDeltas as deltas, textInFlight as shown } from "./helpers/live-text.ts";
import type { Socket } from "./helpers/web-doors.ts";

let sh: SessionHub;
let carolToken: string;
beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  carolToken = (await api(sh.hub, "POST", "/api/tokens", { name: "carol" })).body.token;
});
afterAll(async () => sh?.close());

async function idleSession(name: string) {
  expect((await api(sh.hub, "POST", "/api/sessions", { name })).status).toBe(201);
  await waitForSession(sh.hub, name, (s) => s.status === "idle", 60_000);
}

/** The text of the stored top-level assistant line, once the socket has it (one session per socket here). */
function storedReply(s: Socket): string | null {
  for (const m of s.inbox) {
    if (m.type !== "transcript" || m.payload.entry.type !== "assistant") continue;
    const content = (m.payload.entry.payload as { message: { content: Array<{ type: string; text?: string }> } }).message.content;
    return content.map((b) => b.text ?? "").join("");
  }
  return null;
}

/** The deltas a socket received before the stored line that completed the message. */
function deltasBeforeStored(s: Socket) {
  const end = s.inbox.findIndex((m) => m.type === "transcript" && m.payload.entry.type === "assistant");
  return s.inbox.slice(0, end).flatMap((m) => (m.type === "transcript_delta" ? [m.payload] : []));
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 60_000, interval: 20 });

/** Anything sent to `s` before now is in its inbox once a ping has come back. */
async function roundTrip(s: Socket) {
  const pongs = s.inbox.filter((m) => m.type === "pong").length;
  s.send({ v: WS_VERSION, type: "ping" });
  await s.next("pong", pongs + 1);
}

describe("/ws: the text in flight", () => {
  it("a client that subscribes mid-message receives the text so far, then the rest: the whole message, nothing twice", async () => {
    await idleSession("talker");
    const watcher = await following(sh.hub, ["talker"]);
    const words = "alpha bravo charlie delta echo foxtrot golf hotel india juliet";
    const sent = await api(sh.hub, "POST", "/api/sessions/talker/send", { message: `@drip 20\n@hold 3\n@hold 6\n@reply ${words}` });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await until(() => expect(shown(watcher, "talker")).toBe("alpha bravo charlie "));

    // The stream is held after three words: what this client has can only have come with its subscribe.
    const late = await following(sh.hub, ["talker"]);
    await roundTrip(late);
    expect(deltas(late, "talker")).toEqual([{ session: "talker", text: "alpha bravo charlie ", soFar: true }]);

    // This one subscribes as the stream goes on, with an event replay from the start to read meanwhile; the
    // stream stops again at its next hold, so the message cannot complete before the subscribe has been read.
    const racing = await connected(sh.hub);
    subscribe(racing, ["talker"], 0);
    sh.fake.release();
    await racing.next("subscribed");
    sh.fake.release();

    for (const s of [watcher, late, racing]) await until(() => expect(storedReply(s)).toBe(words));
    for (const s of [late, racing]) {
      const before = deltasBeforeStored(s);
      expect(before[0]).toMatchObject({ soFar: true, text: expect.stringMatching(/^alpha bravo charlie /) });
      expect(before.slice(1).every((d) => !d.soFar)).toBe(true);
      expect(before.reduce((text, d) => (d.soFar ? d.text : text + d.text), "")).toBe(words);
    }
    // Pieces after the subscribe are live ones: one word each, none of them sent twice.
    expect(
      deltasBeforeStored(late)
        .slice(1)
        .map((d) => d.text),
    ).toEqual(
      words
        .split(" ")
        .slice(3)
        .map((w, i, all) => (i < all.length - 1 ? `${w} ` : w)),
    );

    // The stored line ended the message: a client subscribing now gets no text so far.
    await waitForSession(sh.hub, "talker", (s) => s.status === "idle");
    const after = await following(sh.hub, ["talker"]);
    await roundTrip(after);
    expect(deltas(after, "talker")).toEqual([]);
    for (const s of [watcher, late, racing, after]) s.socket.close();
  }, 120_000);

  it("reaches only who may see the session, and a process that dies mid-message voids what it streamed", async () => {
    await idleSession("secretive");
    const watcher = await following(sh.hub, ["secretive"]);
    const sent = await api(sh.hub, "POST", "/api/sessions/secretive/send", { message: "@hold 2\n@reply the launch codes are 1234" });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    await until(() => expect(shown(watcher, "secretive")).toBe("the launch "));

    const carol = await following(sh.hub, ["*"], carolToken);
    const operator = await following(sh.hub, ["*"]);
    await roundTrip(carol);
    expect(deltas(operator, "secretive")).toEqual([{ session: "secretive", text: "the launch ", soFar: true }]);
    expect(deltas(carol, "secretive")).toEqual([]);

    // The process dies before the message completes: no stored line will ever hold this text.
    const { pid } = (await api(sh.hub, "GET", "/api/sessions/secretive")).body;
    process.kill(pid, "SIGKILL");
    await waitForSession(sh.hub, "secretive", (s) => s.status === "failed");
    // Followers are told the text will not complete; a new subscriber gets none of it.
    for (const s of [watcher, operator]) await until(() => expect(deltas(s, "secretive").at(-1)).toEqual({ session: "secretive", text: "", soFar: true }));
    expect(shown(watcher, "secretive")).toBe("");
    const after = await following(sh.hub, ["secretive"]);
    await roundTrip(after);
    await roundTrip(carol);
    expect(deltas(after, "secretive")).toEqual([]);
    expect(deltas(carol, "secretive")).toEqual([]);
    expect(JSON.stringify(carol.inbox)).not.toContain("launch");
    for (const s of [watcher, carol, operator, after]) s.socket.close();
  }, 120_000);
});
