/**
 * The client library: `new TeamHub({ url, token, team })` gives one typed method per endpoint of
 * the HTTP API, grouped as the hub's services are (`hub.sessions.spawn`, `hub.contracts.create`,
 * …). Every answer is parsed by its endpoint's schema (lib/api/call.ts), so a caller gets Dates
 * and typed values or a HubError, never a cast. docs/client.md shows it in use.
 */
import { api } from "../api/endpoints/index.ts";
import { callEndpoint, type FetchLike, type Transport } from "../api/call.ts";
import type { Endpoint, InputOf, OutputOf } from "../api/endpoint.ts";
import { shapeOf } from "../api/shape.ts";
import type { HubEvent } from "../api/events.ts";
import { LiveStream, type LiveOptions } from "./live.ts";
import { SessionHandle } from "./session.ts";

export type CallOptions = { signal?: AbortSignal };

/** An endpoint as a method: its input may be left out when every field of it is optional. */
export type Method<E extends Endpoint> =
  Record<string, never> extends InputOf<E>
    ? (input?: InputOf<E>, options?: CallOptions) => Promise<OutputOf<E>>
    : (input: InputOf<E>, options?: CallOptions) => Promise<OutputOf<E>>;

type Group<G> = { [K in keyof G]: G[K] extends Endpoint ? Method<G[K]> : never };
type Api = typeof api;

export type SubscribeOptions = {
  /** The teams whose events to yield; default the client's team, `[]` every team the token may read (and hub-wide events). */
  teams?: string[];
  /** Only these event types; `"session.*"` matches a prefix. Default: all. */
  types?: string[];
  /** Replay the events after this id first (a cursor kept from an earlier run); default: from now. */
  since?: number;
  signal?: AbortSignal;
  /** How long the hub may stay unreachable before the iterator throws HubUnreachable; default 60 s. */
  reconnectForMs?: number;
};

export type TeamHubOptions = {
  /** The hub's address; default TEAMHUB_URL, else http://127.0.0.1:3000. */
  url?: string;
  /** A bearer token (a session's, a member's or the operator's); default TEAMHUB_TOKEN. */
  token?: string | null;
  /** The team used when a call names none; default "default". */
  team?: string;
  fetch?: FetchLike;
  /** For the calls that wait on purpose (ask, delegate, send with wait): a fetch without a response-time limit. */
  waitingFetch?: FetchLike;
};

const env = (name: string) => (typeof process === "undefined" ? undefined : process.env[name]);

export class TeamHub {
  readonly url: string;
  readonly team: string;
  protected readonly transport: Transport;

  declare readonly artifacts: Group<Api["artifacts"]>;
  declare readonly auth: Group<Api["auth"]>;
  declare readonly budgets: Group<Api["budgets"]>;
  declare readonly chat: Group<Api["chat"]>;
  declare readonly continuity: Group<Api["continuity"]>;
  declare readonly contracts: Group<Api["contracts"]>;
  declare readonly events: Group<Api["events"]>;
  declare readonly gate: Group<Api["gate"]>;
  declare readonly graph: Group<Api["graph"]>;
  declare readonly health: Group<Api["health"]>;
  declare readonly hubs: Group<Api["hubs"]>;
  declare readonly knowledge: Group<Api["knowledge"]>;
  declare readonly leads: Group<Api["leads"]>;
  declare readonly limits: Group<Api["limits"]>;
  declare readonly lineage: Group<Api["lineage"]>;
  declare readonly overview: Group<Api["overview"]>;
  declare readonly pipelines: Group<Api["pipelines"]>;
  declare readonly roster: Group<Api["roster"]>;
  declare readonly runtimes: Group<Api["runtimes"]>;
  declare readonly sessions: Group<Api["sessions"]>;
  declare readonly snapshots: Group<Api["snapshots"]>;
  declare readonly teams: Group<Api["teams"]>;
  declare readonly webhooks: Group<Api["webhooks"]>;
  declare readonly worktrees: Group<Api["worktrees"]>;

  constructor(options: TeamHubOptions = {}) {
    this.url = (options.url ?? env("TEAMHUB_URL") ?? "http://127.0.0.1:3000").replace(/\/+$/, "");
    this.team = options.team ?? "default";
    this.transport = { baseUrl: this.url, token: options.token ?? env("TEAMHUB_TOKEN") ?? null, fetch: options.fetch, waitingFetch: options.waitingFetch };
    for (const [group, endpoints] of Object.entries(api)) {
      const methods = Object.fromEntries(Object.entries(endpoints).map(([name, endpoint]) => [name, this.method(endpoint)]));
      Object.defineProperty(this, group, { value: methods, enumerable: true });
    }
  }

  /**
   * Calls one endpoint; the team of the hub fills a `team` field the caller left out. A `team` given
   * as undefined stays out: where the team is optional (listing sessions, cleanup), that means every team.
   */
  call<E extends Endpoint>(endpoint: E, input: InputOf<E>, options: CallOptions = {}): Promise<OutputOf<E>> {
    const fields = (input ?? {}) as Record<string, unknown>;
    const withTeam = "team" in (shapeOf(endpoint.input) ?? {}) && !("team" in fields) ? { ...fields, team: this.team } : fields;
    return callEndpoint(this.transport, endpoint, withTeam as InputOf<E>, options);
  }

  /**
   * The team's events as they are committed, as an async iterator: `for await (const e of hub.subscribe())`.
   * It resumes from the last event after a dropped connection, so none is lost; `break` closes it.
   */
  subscribe(options: SubscribeOptions = {}): LiveStream<HubEvent> {
    const wanted = (type: string) => !options.types || options.types.some((t) => (t.endsWith(".*") ? type.startsWith(t.slice(0, -1)) : type === t));
    return this.live<HubEvent>({
      teams: options.teams ?? [this.team],
      sessions: [],
      since: options.since,
      signal: options.signal,
      reconnectForMs: options.reconnectForMs,
      read: (frame) => (frame.type === "event" && wanted(frame.payload.type) ? [{ ...frame.payload, at: new Date(frame.payload.at) }] : []),
    });
  }

  /** One session as a handle: send and wait for the turn, stream its text and tool calls (lib/client/session.ts). */
  session(name: string): SessionHandle {
    return new SessionHandle(this, name);
  }

  /** A /ws stream with this client's address and token; `subscribe` and the session handle are built on it. */
  live<T>(options: Omit<LiveOptions<T>, "url" | "token">): LiveStream<T> {
    return new LiveStream<T>({ ...options, url: this.url, token: this.transport.token ?? null });
  }

  private method(endpoint: Endpoint) {
    return (input: InputOf<Endpoint> = {}, options?: CallOptions) => this.call(endpoint, input, options);
  }
}
