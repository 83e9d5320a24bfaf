/**
 * The client's live events against a real hub: `hub.subscribe()` yields the team's events as they are
 * committed, survives a hub restart without losing or repeating one (it resubscribes from the last id it
 * delivered), and `break` closes its socket. A stream that keeps trying (the dashboard's) waits for a hub that is not up
 * yet and says each state it passes through.
 */
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { TeamHub, type HubEvent } from "teamhub";
import { startHub, tempDataDir, type HubProcess } from "./helpers/hub-process.ts";

let hub: HubProcess;
const dataDir = tempDataDir("client-live");

beforeAll(async () => (hub = await startHub(dataDir)));
afterAll(async () => hub?.kill());

describe("hub.subscribe", () => {
  it("yields every event of the team across a hub restart, once each, in order, and closes on break", async () => {
    const client = new TeamHub({ url: hub.url, token: "", team: "live" });
    await client.teams.create({ id: "live" });
    const publish = (n: number) => client.artifacts.publish({ id: `doc-${n}`, type: "custom", data: { n } });
    const events = client.subscribe({ types: ["artifact.*"], reconnectForMs: 120_000 });
    await events.ready;
    const seen: HubEvent[] = [];
    const reading = (async () => {
      for await (const e of events) {
        seen.push(e);
        if (seen.length === 4) break;
      }
    })();
    await publish(1);
    await publish(2);
    await hub.kill();
    hub = await startHub(dataDir, {}, Number(new URL(hub.url).port));
    await publish(3);
    await publish(4);
    await reading;
    expect(seen.map((e) => [e.type, e.type === "artifact.published" ? e.payload.artifactId : e.subject])).toEqual(
      [1, 2, 3, 4].map((n) => ["artifact.published", `doc-${n}`]),
    );
    expect(seen.every((e) => e.at instanceof Date && e.teamId === "live")).toBe(true);
    expect(new Set(seen.map((e) => e.id)).size).toBe(4);
    // The loop's break closed the stream: it yields nothing more.
    await publish(5);
    expect(await events.next()).toEqual({ value: undefined, done: true });
  }, 180_000);

  it("keeps trying for a hub that is not up yet when asked to (as the dashboard does), and says each state", async () => {
    // A port that was free a moment ago: nothing answers there until the hub below starts on it.
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, "127.0.0.1", () => {
        const { port } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const states: string[] = [];
    const client = new TeamHub({ url: `http://127.0.0.1:${port}`, token: "", team: "waiting" });
    const stream = client.live({
      teams: ["waiting"],
      sessions: [],
      keepTrying: true,
      onState: (s) => states.push(s),
      read: (frame) => (frame.type === "event" ? [frame.payload] : []),
    });
    // Refused more than once, and still trying: a stream that does not keep trying fails on the first (test below).
    await vi.waitFor(() => expect(states.filter((s) => s === "offline").length).toBeGreaterThanOrEqual(2), { timeout: 10_000 });
    expect(states).not.toContain("live");
    const late = await startHub(tempDataDir("client-live-late"), {}, port);
    try {
      await stream.ready;
      expect(states.at(-1)).toBe("live");
      expect(states.slice(0, 3)).toEqual(["connecting", "offline", "connecting"]);
      await client.teams.create({ id: "waiting" });
      await client.artifacts.publish({ id: "after-the-wait", type: "custom", data: {} });
      for await (const e of stream) {
        if (e.type === "artifact.published") break;
      }
      // Breaking out closed it: its socket's close is the last state.
      await vi.waitFor(() => expect(states.at(-1)).toBe("offline"));
    } finally {
      stream.close();
      await late.kill();
    }
  }, 120_000);

  it("reports a hub that is not there as HubUnreachable", async () => {
    const events = new TeamHub({ url: "http://127.0.0.1:9" }).subscribe();
    await expect(events.ready).rejects.toMatchObject({ name: "HubUnreachable" });
    await expect(events.next()).rejects.toMatchObject({ name: "HubUnreachable" });
  });
});
