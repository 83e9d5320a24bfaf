/**
 * /ws: live event log for the dashboard and scripts. Clients subscribe to teams, optionally
 * from an event id, and receive every committed event after that, replayed from the log first.
 * The socket is a view: it never writes.
 *
 * Each connection reads as its principal (docs/security.md#capabilities): events pass through `eventFor`, transcript lines
 * only reach who may see the session. Following a session starts with the text streamed so far of
 * its message in flight, so a client joining mid-message has it from the first word. Bounds: subscribes run one at a time per connection (a
 * newer one supersedes a replay in progress), replays read the log in pages and yield between
 * them, and subscribes are rate limited; a client that keeps flooding is closed (1008). A socket
 * opened with a token that is revoked later is closed at once (1008).
 */
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type WebSocket } from "ws";
import { ClientMessage, WS_VERSION, type ServerMessage } from "../../lib/ws.ts";
import { eventFor, transcriptVisibleTo } from "../domain/auth/visibility.ts";
import type { Principal } from "../domain/principal.ts";
import type { EventBus } from "../events/bus.ts";
import type { HubEvent } from "../events/types.ts";
import { DEPTH_RULE, deeperThan } from "../http/json-depth.ts";
import { revokedTokenHashes } from "../http/revoked.ts";
import { TokenBucket } from "../http/token-bucket.ts";
import type { Services } from "../services.ts";
import type { TranscriptFeed, TranscriptOwner, TranscriptPush } from "../supervisor/transcript-feed.ts";

// A client that stops reading must not make the hub buffer without bound.
const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;
const REPLAY_LIMIT = 5000;
// Small enough that one page never holds the event loop for long; the hub serves others between pages.
const REPLAY_PAGE = 200;
// Subscribes: a burst of SUBSCRIBE_BURST, then SUBSCRIBE_PER_SECOND; FLOOD_CLOSE refusals in a row close the socket.
const SUBSCRIBE_BURST = 10;
const SUBSCRIBE_PER_SECOND = 2;
const FLOOD_CLOSE = 20;

/** Who a connection reads as, and the hash of the token it opened with (null: no token). */
export type WsIdentity = { principal: Principal; token: string | null };

type Client = WsIdentity & {
  socket: WebSocket;
  teams: Set<string> | null;
  sessions: Set<string>;
  /**
   * False until the first subscribe: a client follows no event before it says from where. Delivered
   * live before it, an event committed between the connection and the subscribe was sent again by
   * the subscribe's replay (a reconnecting client resumes from an id older than it).
   */
  following: boolean;
  ready: boolean;
  backlog: HubEvent[];
  /** Bumped by every subscribe: a replay whose generation is stale stops at its next page. */
  generation: number;
  queue: Promise<void>;
  bucket: TokenBucket;
};

function send(socket: WebSocket, msg: ServerMessage) {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(msg));
}

const errorFrame = (code: string, message: string): ServerMessage => ({ v: WS_VERSION, type: "error", team: null, payload: { code, message } });

const wire = (e: HubEvent): ServerMessage => ({ v: WS_VERSION, type: "event", team: e.teamId, payload: e });

const follows = (c: Client, push: { session: string; team: string }) =>
  (c.sessions.has(push.session) || c.sessions.has("*")) && (c.teams === null || c.teams.has(push.team));

const yieldToOthers = () => new Promise<void>((r) => setImmediate(r));

export function createWsHub(bus: EventBus, svc: Services, feed: TranscriptFeed) {
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const clients = new Set<Client>();

  const deliver = (c: Client, e: HubEvent) => {
    if (c.teams && (e.teamId === null || !c.teams.has(e.teamId))) return false;
    const visible = eventFor(c.principal, e);
    if (!visible) return false;
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) return (c.socket.close(1013, "too slow: reconnect with since"), false);
    send(c.socket, wire(visible));
    return true;
  };

  const unsubscribe = bus.subscribe((events) => {
    const revoked = revokedTokenHashes(events);
    for (const c of clients) {
      if (c.token && revoked.has(c.token)) {
        clients.delete(c);
        c.socket.close(1008, "token revoked");
        continue;
      }
      if (!c.following) continue;
      for (const e of events) {
        if (c.ready) deliver(c, e);
        else c.backlog.push(e);
      }
    }
  });

  const pushTo = (c: Client, push: TranscriptPush) => {
    if (c.socket.bufferedAmount > MAX_BUFFERED_BYTES) return;
    const { team, session } = push;
    if ("textDelta" in push) send(c.socket, { v: WS_VERSION, type: "transcript_delta", team, payload: { session, text: push.textDelta } });
    else if ("output" in push) send(c.socket, { v: WS_VERSION, type: "process_output", team, payload: { session, piece: push.output } });
    else if ("textEnded" in push) send(c.socket, { v: WS_VERSION, type: "transcript_delta", team, payload: { session, text: "", soFar: true } });
    else send(c.socket, { v: WS_VERSION, type: "transcript", team, payload: { session, entry: push.entry } });
  };

  // The push carries the session's owner, so visibility is decided here without a lookup.
  const sees = (c: Client, push: { session: string; team: string; owner: TranscriptOwner }) => follows(c, push) && transcriptVisibleTo(c.principal, push.owner);

  const unfollow = feed.subscribe((push) => {
    for (const c of clients) if (sees(c, push)) pushTo(c, push);
  });

  /**
   * The text streamed so far of each followed message in flight, as one delta. Called in the same tick that
   * sets what the client follows: every piece published before is in it, every later one is pushed live.
   */
  const sendTextsSoFar = (c: Client) => {
    for (const t of feed.textsSoFar()) {
      if (!t.text || !sees(c, t) || c.socket.bufferedAmount > MAX_BUFFERED_BYTES) continue;
      const payload = { session: t.session, text: t.text, soFar: true as const, ...(t.elided ? { elided: t.elided } : {}) };
      send(c.socket, { v: WS_VERSION, type: "transcript_delta", team: t.team, payload });
    }
  };

  const current = (c: Client, generation: number) => c.generation === generation && c.socket.readyState === c.socket.OPEN;

  async function subscribe(c: Client, generation: number, teams: string[], since: number | undefined, sessions: string[]) {
    c.sessions = new Set(sessions);
    c.following = true;
    c.ready = false;
    c.backlog = [];
    c.teams = teams.length ? new Set(teams) : null;
    sendTextsSoFar(c);
    let replayed = 0;
    let last = since ?? 0;
    if (since !== undefined) {
      for (let read = 0; read < REPLAY_LIMIT;) {
        const page = await svc.events.after({ teams, after: last, limit: Math.min(REPLAY_PAGE, REPLAY_LIMIT - read) });
        if (!current(c, generation)) return;
        for (const e of page) if (deliver(c, e)) replayed++;
        read += page.length;
        if (page.length) last = page[page.length - 1].id;
        if (page.length < REPLAY_PAGE) break;
        await yieldToOthers();
        if (!current(c, generation)) return;
      }
    }
    // Events committed while the replay was read arrive through the backlog, without duplicates.
    for (const e of c.backlog) if (since === undefined || e.id > last) deliver(c, e);
    c.backlog = [];
    c.ready = true;
    send(c.socket, { v: WS_VERSION, type: "subscribed", team: null, payload: { teams, replayed } });
  }

  function onMessage(c: Client, data: unknown) {
    let msg: ClientMessage;
    try {
      const value: unknown = JSON.parse(String(data));
      if (deeperThan(value)) throw new Error(`message: ${DEPTH_RULE.message} (${DEPTH_RULE.rule})`);
      const parsed = ClientMessage.safeParse(value);
      if (!parsed.success) throw new Error(parsed.error.issues.map((i) => `${i.path.join(".") || "message"}: ${i.message}`).join("; "));
      msg = parsed.data;
    } catch (e) {
      return send(c.socket, errorFrame("invalid_input", (e as Error).message));
    }
    if (msg.type === "ping") return send(c.socket, { v: WS_VERSION, type: "pong", team: null, payload: {} });
    if (!c.bucket.take()) {
      if (c.bucket.refusedInARow >= FLOOD_CLOSE) return c.socket.close(1008, "too many subscribes");
      return send(c.socket, errorFrame("rate_limited", `too many subscribes: at most ${SUBSCRIBE_BURST} at once, then ${SUBSCRIBE_PER_SECOND} a second`));
    }
    const generation = ++c.generation;
    const { teams, since, sessions } = msg.payload;
    c.queue = c.queue.then(() =>
      current(c, generation)
        ? subscribe(c, generation, teams, since, sessions).catch((e: Error) => send(c.socket, errorFrame("internal", e.message)))
        : undefined,
    );
  }

  wss.on("connection", async (socket: WebSocket, _req: IncomingMessage, identity: WsIdentity) => {
    const client: Client = {
      ...identity,
      socket,
      teams: null,
      sessions: new Set(),
      following: false,
      ready: true,
      backlog: [],
      generation: 0,
      queue: Promise.resolve(),
      bucket: new TokenBucket(SUBSCRIBE_BURST, SUBSCRIBE_PER_SECOND),
    };
    clients.add(client);
    socket.on("close", () => clients.delete(client));
    socket.on("message", (data) => onMessage(client, data));
    send(socket, { v: WS_VERSION, type: "hello", team: null, payload: { version: svc.info.version, lastEventId: await svc.events.lastId() } });
  });

  return {
    handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, identity: WsIdentity) {
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit("connection", ws, req, identity));
    },
    close() {
      unsubscribe();
      unfollow();
      for (const c of clients) c.socket.close(1001, "hub shutting down");
      wss.close();
    },
  };
}
