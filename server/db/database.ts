/**
 * The hub's database over one adapter (SQLite or PostgreSQL, see ./adapter.ts): one write at a
 * time per process behind a mutex, and the adapter's exclusive transaction across processes.
 *
 * `write(name, fn)` is the only way to change state: it runs fn in one exclusive transaction,
 * appends every event fn emits to the event log inside it, and publishes those events on the
 * bus after COMMIT; with `dryRun` it rolls back instead, so a preview runs exactly the code the
 * real command runs and writes nothing. `read(fn)` runs in its own read-only snapshot, so it never
 * sees a write that has not committed.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { EventBus } from "../events/bus.ts";
import { z } from "zod";
import { EVENTS, asHubEvent } from "../../lib/api/events.ts";
import type { Cause, EventType, HubEvent, NewEvent } from "../events/types.ts";
import type { DbAdapter } from "./adapter.ts";
import type { Param, RunResult, Sql } from "./connection.ts";
import type { EventValues } from "./event-append.ts";
import { Mutex } from "./mutex.ts";

export interface WriteTx extends Sql {
  readonly name: string;
  readonly principal: string;
  readonly now: Date;
  /** The hub process writing (docs/hubs.md), or null for one that runs no sessions (`teamhub mcp` over stdio). */
  readonly hub: string | null;
  /**
   * Appends to the event log in this transaction; published on the bus after commit. A payload
   * that does not fit its type's schema in the catalog is a programming error: it throws, and the
   * transaction rolls back. The events of a transaction reach the log table together, as its last
   * statements before COMMIT (one round trip for a whole cascade); their ids are drawn then.
   */
  emit<K extends EventType>(event: NewEvent<K>): Promise<void>;
  /** Runs after commit; a failure is logged, never reported as a failed write. */
  afterCommit(fn: () => void | Promise<void>): void;
  /**
   * Runs inside the transaction once the command's own work is done, before COMMIT, in the order
   * registered; it may write and emit. For work that sums up a whole transaction (one notice per
   * recipient, however many steps of a cascade concerned it).
   */
  beforeCommit(fn: () => Promise<void>): void;
  /** True when the write is a preview: everything it does is rolled back at the end. */
  readonly dryRun: boolean;
  readonly cause: Cause | null;
  /** Events emitted so far in this transaction, oldest first; `id` is 0 until they are appended. */
  readonly emitted: readonly HubEvent[];
}

const insideWrite = new AsyncLocalStorage<string>();

export class Database {
  private readonly writeLock = new Mutex();
  /** The time writes see (tx.now, event times): tests move it on rather than sleep through a window or deadline. */
  private readonly clock: () => Date;
  /** Which hub this process is (docs/hubs.md): a session it spawns or resumes is run by its supervisor. */
  readonly hub: string | null;
  /** Takes committed events to the bus; the log feed puts other processes' events in between (server/events/log-feed.ts). */
  private committed: ((events: HubEvent[]) => void | Promise<void>) | null = null;

  constructor(
    readonly adapter: DbAdapter,
    private readonly bus: EventBus,
    options: { clock?: () => Date; hub?: string } = {},
  ) {
    this.clock = options.clock ?? (() => new Date());
    this.hub = options.hub ?? null;
  }

  /**
   * `team`: the write changes that team's state and nothing else's (it may read anything); where the database allows it
   * (PostgreSQL), it then runs beside other teams' writes of other processes (docs/postgres.md#writes). Every event it
   * emits must belong to that team. Without it the write runs beside no other.
   */
  async write<T>(
    name: string,
    principal: string,
    fn: (tx: WriteTx) => Promise<T>,
    options: { cause?: Cause | null; dryRun?: boolean; team?: string } = {},
  ): Promise<T> {
    const outer = insideWrite.getStore();
    if (outer) throw new Error(`write '${name}' started inside write '${outer}': pass the transaction down instead`);
    const release = await this.writeLock.lock();
    const events: HubEvent[] = [];
    const rows: EventValues[] = [];
    const hooks: Array<() => void | Promise<void>> = [];
    const dryRun = options.dryRun ?? false;
    let result: T;
    try {
      const { value, eventIds } = await this.adapter.transaction(
        async (sql) => {
          const summaries: Array<() => Promise<void>> = [];
          const tx = this.transaction(sql, { name, principal, cause: options.cause ?? null, team: options.team, dryRun }, events, rows, hooks, summaries);
          return insideWrite.run(name, async () => {
            const r = await fn(tx);
            // A summary step may register another (a notice that moves a contract): run until none is left.
            for (let i = 0; i < summaries.length; i++) await summaries[i]();
            return { value: r, events: rows };
          });
        },
        { rollback: dryRun, team: options.team },
      );
      events.forEach((e, i) => ((e as { id: number }).id = eventIds[i]));
      result = value;
    } finally {
      release();
    }
    if (dryRun) return result;
    if (this.committed) await this.committed(events);
    else this.bus.publish(events);
    for (const hook of hooks) {
      try {
        await hook();
      } catch (e) {
        console.error(`[teamhub] after-commit step of '${name}' failed:`, e);
      }
    }
    return result;
  }

  /** Routes this connection's committed events through `fn` instead of straight to the bus; null restores the default. */
  onCommitted(fn: ((events: HubEvent[]) => void | Promise<void>) | null): void {
    this.committed = fn;
  }

  read<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return this.adapter.snapshot(fn);
  }

  close(): Promise<void> {
    return this.adapter.close();
  }

  private transaction(
    w: Sql,
    { name, principal, cause, team, dryRun }: { name: string; principal: string; cause: Cause | null; team: string | undefined; dryRun: boolean },
    events: HubEvent[],
    rows: EventValues[],
    hooks: Array<() => void | Promise<void>>,
    summaries: Array<() => Promise<void>>,
  ): WriteTx {
    const now = this.clock();
    return {
      name,
      principal,
      now,
      hub: this.hub,
      cause,
      emitted: events,
      dialect: w.dialect,
      all: <T>(sql: string, params?: readonly Param[]) => w.all<T>(sql, params),
      get: <T>(sql: string, params?: readonly Param[]) => w.get<T>(sql, params),
      run: (sql: string, params?: readonly Param[]): Promise<RunResult> => w.run(sql, params),
      dryRun,
      afterCommit: (fn) => void hooks.push(fn),
      beforeCommit: (fn) => void summaries.push(fn),
      emit: async <K extends EventType>(e: NewEvent<K>): Promise<void> => {
        if (team !== undefined && e.teamId !== team) throw new Error(`write '${name}' of team '${team}' emitted '${e.type}' of team '${e.teamId}'`);
        const at = this.clock();
        const depth = cause ? cause.depth + 1 : 0;
        const causedBy = cause?.eventId ?? null;
        rows.push([e.teamId, e.type, e.subject, JSON.stringify(encodePayload(e.type, e.payload)), principal, causedBy, depth, at]);
        events.push(asHubEvent<K>({ id: 0, teamId: e.teamId, type: e.type, subject: e.subject, payload: e.payload, principal, causedBy, depth, at }));
      },
    };
  }
}

/** The payload as the log stores it (dates as ISO text), checked against the catalog. */
function encodePayload(type: EventType, payload: unknown): unknown {
  const schema: z.ZodType = EVENTS[type];
  const checked = z.safeEncode(schema, payload);
  if (!checked.success) throw new Error(`event '${type}': the payload does not fit the catalog (lib/api/events.ts): ${z.prettifyError(checked.error)}`);
  return checked.data;
}
