/**
 * A live stream over /ws as an async iterator (docs/client.md#live-events-as-async-iterators). It subscribes, yields
 * what its reader makes of each frame, and when the socket drops it reconnects and subscribes again
 * from the last event id it delivered, so the hub replays what was missed; transcript lines, which
 * /ws does not replay, come from the reader's catch-up. Breaking out of `for await` (or `close()`,
 * or the abort signal) closes the socket.
 */
import { HubError, HubUnreachable } from "../api/call.ts";
import { ServerMessage, WS_VERSION } from "../ws.ts";
import { openSocket, type Socket } from "./socket.ts";

export type Frame = Extract<ServerMessage, { type: "event" | "transcript" | "transcript_delta" | "process_output" }>;

/** Where the stream stands: opening a socket, subscribed, or between sockets. */
export type LiveState = "connecting" | "live" | "offline";

export type LiveOptions<T> = {
  url: string;
  token: string | null;
  teams: string[];
  sessions: string[];
  /** Replay the events after this id first; default: from the moment the stream connects. */
  since?: number;
  /** What one frame yields (none, one or more items). */
  read: (frame: Frame) => T[];
  /** After a reconnect: what the stream missed besides events, read before the live frames go on. */
  catchUp?: () => Promise<T[]>;
  signal?: AbortSignal;
  /** How long the hub may stay unreachable before the stream gives up with HubUnreachable. */
  reconnectForMs?: number;
  /**
   * A page waiting for its hub (the dashboard) rather than a script: a first connection that fails is tried again like
   * any other, and the stream never gives up on an unreachable hub (only the hub's own refusal, 1008, ends it).
   */
  keepTrying?: boolean;
  /** Told each change of state, as the dashboard's live indicator shows it. */
  onState?: (state: LiveState) => void;
};

// A half-open connection (a laptop's sleep, a dropped route) sends no close: a ping unanswered this long ends it.
const PING_EVERY_MS = 15_000;
const SILENT_MS = 40_000;
const RETRY_FIRST_MS = 100;
const RETRY_MAX_MS = 5_000;

export class LiveStream<T> implements AsyncIterableIterator<T> {
  /** Resolves once the hub has subscribed the stream: every event committed after it is delivered. */
  readonly ready: Promise<void>;
  private readonly queue: T[] = [];
  private wake: (() => void) | null = null;
  private failure: Error | null = null;
  private ended = false;
  private socket: Socket | null = null;
  private lastEventId: number | undefined;
  private readonly address: string;
  private settleReady!: (error?: Error) => void;

  constructor(private readonly o: LiveOptions<T>) {
    const query = o.token ? `?token=${encodeURIComponent(o.token)}` : "";
    this.address = `${o.url.replace(/^http/, "ws")}/ws${query}`;
    this.lastEventId = o.since;
    this.ready = new Promise<void>((resolve, reject) => (this.settleReady = (error) => (error ? reject(error) : resolve())));
    // Whoever iterates without awaiting `ready` still gets the failure, from next().
    this.ready.catch(() => undefined);
    if (o.signal?.aborted) this.close();
    o.signal?.addEventListener("abort", () => this.close(), { once: true });
    if (!this.ended) void this.run();
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  async next(): Promise<IteratorResult<T>> {
    for (;;) {
      if (this.queue.length) return { value: this.queue.shift()!, done: false };
      if (this.failure) {
        const failure = this.failure;
        this.failure = null;
        throw failure;
      }
      if (this.ended) return { value: undefined, done: true };
      await new Promise<void>((r) => (this.wake = r));
    }
  }

  async return(): Promise<IteratorResult<T>> {
    this.close();
    this.queue.length = 0;
    return { value: undefined, done: true };
  }

  /** Ends the stream: the socket closes, a waiting `next()` returns done. */
  close() {
    if (this.ended) return;
    this.ended = true;
    this.socket?.close(1000, "done");
    this.settleReady(new Error("the live stream was closed before it was subscribed"));
    this.notify();
  }

  private notify() {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  private push(items: T[]) {
    if (this.ended || !items.length) return;
    this.queue.push(...items);
    this.notify();
  }

  private fail(error: Error) {
    if (this.ended) return;
    this.failure = error;
    this.settleReady(error);
    this.close();
  }

  private async run() {
    let failingSince: number | null = null;
    let delay = RETRY_FIRST_MS;
    for (let first = true; !this.ended; first = false) {
      this.o.onState?.("connecting");
      const end = await this.connection(first);
      this.o.onState?.("offline");
      if (this.ended) return;
      // 1008: the hub ended it on purpose (token revoked, flooding); reconnecting would be refused again.
      if (end.code === 1008) return this.fail(new HubError(403, "closed", `the hub closed the live stream: ${end.reason || "policy"}`));
      if (end.subscribed) [failingSince, delay] = [null, RETRY_FIRST_MS];
      else failingSince ??= Date.now();
      const reason = end.reason || `closed with ${end.code}`;
      const givingUp =
        !this.o.keepTrying && ((first && !end.subscribed) || (failingSince !== null && Date.now() - failingSince > (this.o.reconnectForMs ?? 60_000)));
      if (givingUp) return this.fail(new HubUnreachable(this.o.url, `/ws: ${reason}`));
      await new Promise<void>((r) => {
        const timer = setTimeout(r, delay);
        this.o.signal?.addEventListener("abort", () => (clearTimeout(timer), r()), { once: true });
      });
      delay = Math.min(delay * 2, RETRY_MAX_MS);
    }
  }

  /** One socket, from opening to its close; a reconnect holds live frames until the catch-up has been delivered. */
  private connection(first: boolean): Promise<{ subscribed: boolean; code: number; reason: string }> {
    return new Promise((resolve) => {
      let subscribed = false;
      let held: Frame[] | null = null;
      let heard = Date.now();
      let socket: Socket | null = null;
      const deliver = (frame: Frame) => {
        if (frame.type === "event") this.lastEventId = Math.max(this.lastEventId ?? 0, frame.payload.id);
        if (held) held.push(frame);
        else this.push(this.o.read(frame));
      };
      const catchUp = async (read: () => Promise<T[]>) => {
        held = [];
        try {
          this.push(await read());
        } catch (e) {
          return this.fail(e as Error);
        }
        const frames: Frame[] = held;
        held = null;
        for (const f of frames) this.push(this.o.read(f));
      };
      const onMessage = (text: string) => {
        heard = Date.now();
        let parsed;
        try {
          parsed = ServerMessage.safeParse(JSON.parse(text));
        } catch {
          parsed = null;
        }
        if (!parsed?.success) return this.fail(new HubError(0, "bad_response", `/ws sent a frame that is not a Team Hub envelope: ${text.slice(0, 200)}`));
        const m = parsed.data;
        switch (m.type) {
          case "hello":
            this.lastEventId ??= m.payload.lastEventId;
            socket?.send(
              JSON.stringify({
                v: WS_VERSION,
                type: "subscribe",
                team: null,
                payload: { teams: this.o.teams, sessions: this.o.sessions, since: this.lastEventId },
              }),
            );
            if (!first && this.o.catchUp) void catchUp(this.o.catchUp);
            return;
          case "subscribed":
            subscribed = true;
            this.o.onState?.("live");
            return this.settleReady();
          case "error":
            return this.fail(new HubError(0, m.payload.code, `/ws: ${m.payload.message}`));
          case "pong":
            return;
          default:
            return deliver(m);
        }
      };
      const pinger = setInterval(() => {
        if (Date.now() - heard > SILENT_MS) return socket?.close(4000, "no answer to pings");
        socket?.send(JSON.stringify({ v: WS_VERSION, type: "ping", team: null, payload: {} }));
      }, PING_EVERY_MS);
      // A script whose stream is idle should still be able to exit when it is done with it.
      (pinger as { unref?: () => void }).unref?.();
      openSocket(this.address, {
        message: onMessage,
        close: (code, reason) => {
          clearInterval(pinger);
          resolve({ subscribed, code, reason });
        },
      }).then(
        (s) => {
          socket = s;
          this.socket = s;
          if (this.ended) s.close(1000, "done");
        },
        (e: Error) => {
          clearInterval(pinger);
          this.fail(e);
          resolve({ subscribed, code: 1006, reason: e.message });
        },
      );
    });
  }
}
