/**
 * /ws: live event log for the dashboard and scripts. Clients subscribe to teams, optionally
 * from an event id, and receive every committed event after that, replayed from the log first.
 * The socket is a view: it never writes.
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { ClientMessage, WS_VERSION, type ServerMessage } from "../../lib/ws.ts";
import type { EventBus } from "../events/bus.ts";
import type { HubEvent } from "../events/types.ts";
import type { Services } from "../services.ts";
import type { TranscriptFeed, TranscriptPush } from "../supervisor/transcript-feed.ts";

// A client that stops reading must not make the hub buffer without bound.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const REPLAY_LIMIT = 5000;

type Client = { socket: WebSocket; teams: Set<string> | null; sessions: Set<string>; ready: boolean; backlog: HubEvent[] };

function send(socket: WebSocket, msg: ServerMessage) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
}

const wire = (e: HubEvent): ServerMessage => ({ v: WS_VERSION, type: "event", team: e.teamId, payload: { ...e, at: e.at.toISOString() } });

const follows = (c: Client, push: TranscriptPush) =>
  (c.sessions.has(push.session) || c.sessions.has("*")) && (c.teams === null || c.teams.has(push.team));

export function createWsHub(bus: EventBus, svc: Services, feed: TranscriptFeed) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const clients = new Set<Client>();

  const deliver = (c: Client, e: HubEvent) => {
    if (c.teams && (e.teamId === null || !c.teams.has(e.teamId))) return;
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) return c.socket.close(1013, "too slow: reconnect with since");
    send(c.socket, wire(e));
  };

  const unsubscribe = bus.subscribe((events) => {
    for (const c of clients) for (const e of events) (c.ready ? deliver(c, e) : c.backlog.push(e));
  });

  const unfollow = feed.subscribe((push) => {
    for (const c of clients) {
      if (!follows(c, push) || c.socket.bufferedAmount > MAX_BUFFERED_BYTES) continue;
      if ("textDelta" in push) send(c.socket, { v: WS_VERSION, type: "transcript_delta", team: push.team, payload: { session: push.session, text: push.textDelta } });
      else send(c.socket, { v: WS_VERSION, type: "transcript", team: push.team, payload: { session: push.session, entry: { ...push.entry, at: push.entry.at.toISOString() } } });
    }
  });

  async function subscribe(c: Client, teams: string[], since: number | undefined, sessions: string[]) {
    c.sessions = new Set(sessions);
    c.ready = false;
    c.backlog = [];
    c.teams = teams.length ? new Set(teams) : null;
    const replay = since === undefined ? [] : await svc.events.after({ teams, after: since, limit: REPLAY_LIMIT });
    for (const e of replay) deliver(c, e);
    // Events committed while the replay was read arrive through the backlog, without duplicates.
    const last = replay.length ? replay[replay.length - 1].id : (since ?? 0);
    for (const e of c.backlog) if (since === undefined || e.id > last) deliver(c, e);
    c.backlog = [];
    c.ready = true;
    send(c.socket, { v: WS_VERSION, type: "subscribed", team: null, payload: { teams, replayed: replay.length } });
  }

  wss.on("connection", async (socket: WebSocket) => {
    const client: Client = { socket, teams: null, sessions: new Set(), ready: true, backlog: [] };
    clients.add(client);
    socket.on("close", () => clients.delete(client));
    socket.on("message", async (data) => {
      let msg: ClientMessage;
      try {
        const parsed = ClientMessage.safeParse(JSON.parse(String(data)));
        if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; "));
        msg = parsed.data;
      } catch (e) {
        return send(socket, { v: WS_VERSION, type: "error", team: null, payload: { code: "invalid_input", message: (e as Error).message } });
      }
      if (msg.type === "ping") return send(socket, { v: WS_VERSION, type: "pong", team: null, payload: {} });
      await subscribe(client, msg.payload.teams, msg.payload.since, msg.payload.sessions).catch((e: Error) =>
        send(socket, { v: WS_VERSION, type: "error", team: null, payload: { code: "internal", message: e.message } }),
      );
    });
    send(socket, { v: WS_VERSION, type: "hello", team: null, payload: { version: svc.info.version, lastEventId: await svc.events.lastId() } });
  });

  return {
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req));
    },
    close() {
      unsubscribe();
      unfollow();
      for (const c of clients) c.socket.close(1001, "hub shutting down");
      wss.close();
    },
  };
}
