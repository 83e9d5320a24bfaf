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
import { asHubEvent } from "../../lib/api/events.ts";
import type { Cause, EventType, HubEvent, NewEvent } from "../events/types.ts";
import type { DbAdapter } from "./adapter.ts";
import type { RunResult, Sql } from "./connection.ts";
import { sql, type Query } from "./sql.ts";
import { encodePayload } from "./encode-payload.ts";
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
  /** Events emitted so far in this transaction (in this part of it, see `part`), oldest first; `id` is 0 until they are appended. */
  readonly emitted: readonly HubEvent[];
  /**
   * Runs fn as a part of this transaction that stands as a write of its own would (an SQL savepoint): as `principal`,
   * its events caused by `cause`, its before-commit steps run at its end. When fn throws, everything it did (rows,
   * events, steps) is undone and the error rethrown, and the transaction goes on. For many small commands that share
   * one commit (the pipeline runner: one commit for a slice of the log, not one per rule it ran).
   */
  part<T>(as: { name: string; principal: string; cause: Cause | null }, fn: (tx: WriteTx) => Promise<T>): Promise<T>;
}

/** What a transaction collects for after its body: the log's rows, the events for the bus, the after-commit steps. */
type Collected = { events: HubEvent[]; rows: EventValues[]; hooks: Array<() => void | Promise<void>> };
type Scope = { name: string; principal: string; cause: Cause | null; team: string | undefined; dryRun: boolean };

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
    const collected: Collected = { events: [], rows: [], hooks: [] };
    const { events, hooks } = collected;
    const dryRun = options.dryRun ?? false;
    let result: T;
    try {
      const { value, eventIds } = await this.adapter.transaction(
        async (sql) => {
          const summaries: Array<() => Promise<void>> = [];
          const tx = this.transaction(sql, { name, principal, cause: options.cause ?? null, team: options.team, dryRun }, collected, summaries, 0);
          return insideWrite.run(name, async () => {
            const r = await fn(tx);
            await runSummaries(summaries);
            return { value: r, events: collected.rows };
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

  /** `from`: where this part's events start in `collected` (0 for the whole transaction). */
  private transaction(w: Sql, scope: Scope, collected: Collected, summaries: Array<() => Promise<void>>, from: number): WriteTx {
    const { name, principal, cause, team, dryRun } = scope;
    const { events, rows, hooks } = collected;
    const now = this.clock();
    return {
      name,
      principal,
      now,
      hub: this.hub,
      cause,
      get emitted() {
        return from === 0 ? events : events.slice(from);
      },
      dialect: w.dialect,
      all: <T>(query: Query) => w.all<T>(query),
      get: <T>(query: Query) => w.get<T>(query),
      run: (query: Query): Promise<RunResult> => w.run(query),
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
      part: async <T>(as: { name: string; principal: string; cause: Cause | null }, fn: (tx: WriteTx) => Promise<T>): Promise<T> => {
        const mark = { events: events.length, rows: rows.length, hooks: hooks.length };
        // One name for every part: a nested one shadows it, and RELEASE / ROLLBACK TO take the newest (both databases).
        await w.run(sql`SAVEPOINT "teamhub_part"`);
        const own: Array<() => Promise<void>> = [];
        try {
          const value = await fn(this.transaction(w, { ...scope, ...as }, collected, own, events.length));
          await runSummaries(own);
          await w.run(sql`RELEASE SAVEPOINT "teamhub_part"`);
          return value;
        } catch (e) {
          await w.run(sql`ROLLBACK TO SAVEPOINT "teamhub_part"`);
          await w.run(sql`RELEASE SAVEPOINT "teamhub_part"`);
          events.length = mark.events;
          rows.length = mark.rows;
          hooks.length = mark.hooks;
          throw e;
        }
      },
    };
  }
}

/** A summary step may register another (a notice that moves a contract): runs until none is left. */
async function runSummaries(summaries: Array<() => Promise<void>>): Promise<void> {
  for (let i = 0; i < summaries.length; i++) await summaries[i]();
}
