/**
 * /ws: typed envelopes of the event log, pushed after commit; a subscriber can resume from an
 * event id and misses nothing; the Host/Origin checks apply to the upgrade as well.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WS_VERSION } from "../lib/ws.ts";
import { api, startHub, type HubProcess } from "./helpers/hub-process.ts";
import { openSocket } from "./helpers/web-doors.ts";

let hub: HubProcess;
beforeAll(async () => (hub = await startHub()));
afterAll(async () => hub?.kill());

/** The refused-upgrade case rejects with the status, as a client library would. */
function connect(headers: Record<string, string> = {}) {
  const c = openSocket(hub, { headers });
  const opened = c.opened.then(({ status, body }) => {
    if (status !== 101) throw new Error(`upgrade refused: ${status} ${body}`);
  });
  return { ...c, opened };
}

const publish = (team: string, id: string) => api(hub, "POST", `/api/artifacts?team=${team}`, { id, type: "custom", data: { id } });

describe("/ws", () => {
  it("greets, then streams committed events of the subscribed teams only", async () => {
    const c = connect();
    await c.opened;
    const [hello] = await c.next("hello");
    expect(hello.payload).toMatchObject({ version: expect.any(String), lastEventId: expect.any(Number) });
    c.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["alpha"] } });
    await c.next("subscribed");
    await publish("alpha", "one");
    await publish("beta", "elsewhere");
    await publish("alpha", "two");
    const events = (await c.next("event", 3)).map((m) => (m.type === "event" ? m.payload : null));
    expect(events.map((e) => `${e?.teamId} ${e?.type} ${e?.subject}`)).toEqual([
      "alpha team.created team:alpha",
      "alpha artifact.published artifact:one@v1",
      "alpha artifact.published artifact:two@v1",
    ]);
    await publish("alpha", "three");
    await c.next("event", 4);
    expect(c.inbox.filter((m) => m.type === "event" && m.team !== "alpha")).toEqual([]);
    c.socket.close();
  });

  it("replays what happened after `since`, in order, then continues live", async () => {
    const first = connect();
    await first.opened;
    const [hello] = await first.next("hello");
    const since = hello.type === "hello" ? hello.payload.lastEventId : 0;
    first.socket.close();
    await publish("gamma", "missed-1");
    await publish("gamma", "missed-2");

    const c = connect();
    await c.opened;
    c.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["gamma"], since } });
    const [sub] = await c.next("subscribed");
    expect(sub.type === "subscribed" && sub.payload.replayed).toBe(3);
    await publish("gamma", "live");
    const ids = (await c.next("event", 4)).map((m) => (m.type === "event" ? m.payload.subject : ""));
    expect(ids).toEqual(["team:gamma", "artifact:missed-1@v1", "artifact:missed-2@v1", "artifact:live@v1"]);
    c.socket.close();
  });

  it("sends an event committed between the connection and the subscribe once, by the replay, as a reconnecting client needs", async () => {
    const c = connect();
    await c.opened;
    const [hello] = await c.next("hello");
    const since = hello.type === "hello" ? hello.payload.lastEventId : 0;
    // Committed while the socket is open but before it says what it follows.
    await publish("delta", "before-subscribe");
    const other = connect();
    await other.opened;
    other.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["delta"] } });
    await other.next("subscribed");
    c.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["delta"], since } });
    await c.next("subscribed");
    await publish("delta", "after-subscribe");
    // `other` receiving the live one means `c` has been sent it too: /ws pushes an event to every client in one pass.
    await other.next("event");
    await c.next("event", 3);
    const subjects = c.inbox.flatMap((m) => (m.type === "event" ? [m.payload.subject] : []));
    expect(subjects).toEqual(["team:delta", "artifact:before-subscribe@v1", "artifact:after-subscribe@v1"]);
    c.socket.close();
    other.socket.close();
  });

  it("delivers hub-wide events (tokens) to all-team subscribers only", async () => {
    const all = connect();
    const one = connect();
    await Promise.all([all.opened, one.opened]);
    all.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: [] } });
    one.send({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: ["alpha"] } });
    await Promise.all([all.next("subscribed"), one.next("subscribed")]);
    expect((await api(hub, "POST", "/api/tokens", { name: "ws-member" })).status).toBe(201);
    await publish("alpha", "after-token");
    const [token] = await all.next("event");
    expect(token).toMatchObject({ team: null, payload: { teamId: null, type: "token.issued", subject: "principal:ws-member" } });
    const [first] = await one.next("event");
    expect(first).toMatchObject({ team: "alpha", payload: { subject: "artifact:after-token@v1" } });
    all.socket.close();
    one.socket.close();
  });

  it("answers malformed messages with an error envelope and keeps the socket open", async () => {
    const c = connect();
    await c.opened;
    c.send({ v: 99, type: "subscribe" });
    const [err] = await c.next("error");
    expect(err.payload).toMatchObject({ code: "invalid_input" });
    c.send({ v: WS_VERSION, type: "ping", team: null, payload: {} });
    await c.next("pong");
    c.socket.close();
  });

  it("refuses an upgrade from a foreign Host or Origin", async () => {
    for (const headers of [{ host: "evil.example" }, { origin: "https://evil.example" }] as Record<string, string>[]) {
      const c = connect(headers);
      await expect(c.opened).rejects.toThrow(/403/);
    }
  });
});
