/**
 * The PostgreSQL adapter (`pg`). Domain SQL is written once, with `?` placeholders: each statement
 * is rewritten to `$n` once and cached, and the list parameter of ./in-list.ts becomes an array
 * (`= ANY($n)`). Rows come back as the SQLite adapter gives them: timestamps as Date (stored as UTC
 * wall time in `timestamp(3)`, as Prisma's pg adapter stores them), counts and sums as numbers,
 * booleans as 1/0.
 *
 * Writes: one pooled client per transaction, which takes transaction-scoped advisory locks right
 * after BEGIN: a team's write its team's lock (and the database lock shared), any other write the
 * database lock alone — the counterpart of SQLite's BEGIN IMMEDIATE, per team. Events are appended
 * under one more lock, in the message that commits, which puts their ids in commit order. Reads: a REPEATABLE
 * READ, READ ONLY transaction — the counterpart of the reader's WAL snapshot. Why this is correct:
 * docs/postgres.md#writes.
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { pgDriver } from "./pg-driver.ts";
import { z } from "zod";
import type { DbAdapter, WriteBody } from "./adapter.ts";
import { type Param, type RunResult, type Sql } from "./connection.ts";
import type { Query } from "./sql.ts";
import { POSTGRES } from "./dialect.ts";
import { EVENT_COLUMNS, sortedIds, type EventValues } from "./event-append.ts";
import { ROWS_PER_STATEMENT } from "./multi-row.ts";
import { IN_LIST } from "./in-list.ts";

/** The channel on which a commit that appended events names its newest id to every hub (docs/hubs.md#events). */
const EVENTS_CHANNEL = "teamhub_events";

/** The key of the hub's database lock ("teamhub" in ASCII): one number for every hub on the database. */
export const WRITE_LOCK_KEY = "32762566420231522";
/** The key under which events draw their ids ("events"); bigint keys and (int, int) keys never collide. */
const EVENTS_LOCK_KEY = "111559182283891";
/** The first half of a team's (int, int) key ("team"); the second is a hash of its id. */
const TEAM_LOCK_CLASS = 1952801133;

/** FNV-1a of the team id as a signed 32-bit number: every hub computes the same key. Two teams sharing one only queue. */
function teamKey(team: string): number {
  let h = 0x811c9dc5;
  for (const byte of Buffer.from(team)) h = Math.imul(h ^ byte, 0x01000193);
  return h | 0;
}

/**
 * What a write transaction runs first: the locks of its scope (./adapter.ts). A team's two locks are one SELECT (one
 * statement for the server to parse fewer); its target list is evaluated in order, the database lock first.
 */
export const beginWrite = (team?: string) =>
  team === undefined
    ? `BEGIN; SELECT pg_advisory_xact_lock(${WRITE_LOCK_KEY})`
    : `BEGIN; SELECT pg_advisory_xact_lock_shared(${WRITE_LOCK_KEY}), pg_advisory_xact_lock(${TEAM_LOCK_CLASS}, ${teamKey(team)})`;

const OID = { bool: 16, int8: 20, numeric: 1700, timestamp: 1114, timestamptz: 1184 } as const;

/** 1/0 as SQLite gives them, for Boolean columns and comparisons alike: domain code reads one shape. */
const parseBool = (v: string) => (v === "t" ? 1 : 0);
/** COUNT and SUM of integers are bigint/numeric; the values the hub counts stay far below 2^53. */
const parseCount = (v: string) => Number(v);
const parseTimestamp = (v: string) => new Date(`${v.replace(" ", "T")}Z`);
const parseTimestamptz = (v: string) => new Date(v);

/**
 * Per pool, not pg's global registry: the hub must not change how other code in the process parses. pg asks for every
 * column of every result, so the parsers are made once.
 */
const types = {
  getTypeParser(oid: number, format?: "text" | "binary") {
    switch (oid) {
      case OID.bool:
        return parseBool;
      case OID.int8:
      case OID.numeric:
        return parseCount;
      case OID.timestamp:
        return parseTimestamp;
      case OID.timestamptz:
        return parseTimestamptz;
    }
    return pgDriver().types.getTypeParser(oid, format);
  },
} as pg.CustomTypesConfig;

/** What `jsonList` (./in-list.ts) encodes. */
const ListValues = z.array(z.union([z.number(), z.string()]));

/**
 * `name`: the statement is prepared once per connection under it, so PostgreSQL parses and plans it once. Bulk
 * statements (more than PREPARED_MAX_PARAMS parameters) stay unnamed: their text varies with their row count, and
 * their parse is spread over their rows.
 */
type Translated = { name: string | undefined; text: string; lists: ReadonlySet<number> };

const PREPARED_MAX_PARAMS = 64;

const TRANSLATION_CACHE_SIZE = 1000;
const cache = new Map<string, Translated>();
let statements = 0;

/**
 * `?` → `$1, $2, …` outside quotes and comments, and `x [NOT] IN (SELECT "value" FROM json_each(?))`
 * → `x = ANY($n)` / `x <> ALL($n)`, remembering which parameters are such lists.
 */
export function translate(sql: string): Translated {
  const hit = cache.get(sql);
  if (hit) return hit;
  let out = "";
  let n = 0;
  const lists = new Set<number>();
  for (let i = 0; i < sql.length;) {
    const c = sql[i];
    if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < sql.length && !(sql[j] === c && sql[j + 1] !== c)) j += sql[j] === c ? 2 : 1;
      out += sql.slice(i, j + 1);
      i = j + 1;
    } else if (sql.startsWith("--", i)) {
      const j = sql.indexOf("\n", i);
      const end = j < 0 ? sql.length : j;
      out += sql.slice(i, end);
      i = end;
    } else if (sql.startsWith("/*", i)) {
      const j = sql.indexOf("*/", i + 2);
      const end = j < 0 ? sql.length : j + 2;
      out += sql.slice(i, end);
      i = end;
    } else if (sql.startsWith(IN_LIST, i)) {
      const before = /\b(NOT\s+)?IN\s*$/i.exec(out);
      if (!before) throw new Error(`IN_LIST must follow IN or NOT IN: ${sql}`);
      out = `${out.slice(0, before.index)}${before[1] ? "<> ALL" : "= ANY"}($${++n})`;
      lists.add(n - 1);
      i += IN_LIST.length;
    } else if (c === "?") {
      out += `$${++n}`;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  const translated = { name: n <= PREPARED_MAX_PARAMS ? `teamhub_${++statements}` : undefined, text: out, lists };
  if (cache.size >= TRANSLATION_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(sql, translated);
  return translated;
}

/** Without a zone: `timestamp` columns hold UTC wall time, as Prisma writes them. */
const utcWallTime = (d: Date) => d.toISOString().slice(0, -1);

/**
 * Events written into the statement's text, for the one message that appends them and ends the transaction (a message
 * with several statements takes no parameters). Text goes through pg's `escapeLiteral`; the two numbers are integers.
 */
function eventLiterals(rows: readonly EventValues[]): string {
  const literal = (v: EventValues[number]) => {
    if (v === null) return "NULL";
    if (typeof v === "number") {
      if (!Number.isSafeInteger(v)) throw new Error(`an event's causedBy or depth must be an integer, not ${v}`);
      return String(v);
    }
    return pgDriver().escapeLiteral(v instanceof Date ? utcWallTime(v) : v);
  };
  return rows.map((row) => `(${row.map(literal).join(",")})`).join(",");
}

/**
 * The message that appends a write's (non-empty) events and ends it (PostgresAdapter.appendAndEnd): the events lock with
 * the NOTIFY naming `token`, one insert a chunk, then `end`. Its results: the lock's, one a chunk, the end's.
 */
export function appendAndEndMessage(events: readonly EventValues[], end: string, token: string): string {
  const statements = [`SELECT pg_advisory_xact_lock(${EVENTS_LOCK_KEY}), pg_notify('${EVENTS_CHANNEL}', '${token}')`];
  for (let i = 0; i < events.length; i += ROWS_PER_STATEMENT) {
    statements.push(`INSERT INTO "Event" (${EVENT_COLUMNS}) VALUES ${eventLiterals(events.slice(i, i + ROWS_PER_STATEMENT))} RETURNING "id"`);
  }
  return [...statements, end].join("; ");
}

function bind(params: readonly Param[], lists: ReadonlySet<number>): unknown[] {
  return params.map((p, i) => {
    if (lists.has(i)) return ListValues.parse(JSON.parse(String(p)));
    if (p === undefined) return null;
    if (p instanceof Date) return utcWallTime(p);
    if (typeof p === "bigint") return p.toString();
    if (p instanceof Uint8Array && !Buffer.isBuffer(p)) return Buffer.from(p.buffer, p.byteOffset, p.byteLength);
    return p;
  });
}

/**
 * One client's queries, inside the transaction that holds it. The transaction's BEGIN (with a write's locks) is sent
 * without waiting for its answer, so it shares a round trip with the first statement after it (the pool's clients
 * pipeline); that statement reports BEGIN's failure, which comes first, rather than the "transaction is aborted" it
 * causes.
 */
class ClientSql implements Sql {
  readonly dialect = POSTGRES;
  private begun: Promise<unknown> | undefined;

  constructor(
    private readonly client: pg.PoolClient,
    begin: string,
  ) {
    this.begun = client.query(begin);
    // Reported by the first statement after it; a body that fails before any statement rolls back, and says why.
    this.begun.catch(() => {});
  }

  private query(sql: string, params: readonly Param[]): Promise<pg.QueryResult> {
    const { name, text, lists } = translate(sql);
    return this.afterBegin(this.client.query({ name, text, values: bind(params, lists) }));
  }

  /** Statements as they are, several to a message (no parameters, not prepared): the end of the transaction. */
  end<R>(text: string): Promise<R> {
    return this.afterBegin(this.client.query(text) as Promise<unknown> as Promise<R>);
  }

  private async afterBegin<R>(sent: Promise<R>): Promise<R> {
    const begun = this.begun;
    if (!begun) return sent;
    this.begun = undefined;
    return (await Promise.all([begun, sent]))[1];
  }

  async all<T>(query: Query): Promise<T[]> {
    return (await this.query(query.text, query.params)).rows as T[];
  }

  async get<T>(query: Query): Promise<T | undefined> {
    return (await this.query(query.text, query.params)).rows[0] as T | undefined;
  }

  async run(query: Query): Promise<RunResult> {
    return { changes: (await this.query(query.text, query.params)).rowCount ?? 0 };
  }
}

export type PostgresOptions = { maxConnections?: number };

export class PostgresAdapter implements DbAdapter {
  readonly dialect = POSTGRES;
  private readonly pool: pg.Pool;

  constructor(
    private readonly url: string,
    options: PostgresOptions = {},
  ) {
    // UTC sessions: a column default (CURRENT_TIMESTAMP into `timestamp`) is then UTC wall time too.
    this.pool = new (pgDriver().Pool)({ connectionString: url, max: options.maxConnections ?? 10, types, pipeline: true, options: "-c TimeZone=UTC" });
    // An idle client whose connection drops is removed from the pool; without a listener it would end the process.
    this.pool.on("error", (e) => console.error("[teamhub] an idle PostgreSQL connection failed:", e.message));
  }

  transaction<T>(fn: (sql: Sql) => Promise<WriteBody<T>>, { rollback, team }: { rollback: boolean; team?: string }): Promise<{ value: T; eventIds: number[] }> {
    return this.inTransaction(beginWrite(team), async (sql) => {
      const { value, events } = await fn(sql);
      return { value, eventIds: await this.appendAndEnd(sql, events, rollback ? "ROLLBACK" : "COMMIT") };
    });
  }

  snapshot<T>(fn: (sql: Sql) => Promise<T>): Promise<T> {
    return this.inTransaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", async (sql) => {
      const value = await fn(sql);
      await sql.end("COMMIT");
      return value;
    });
  }

  /**
   * Appends a write's events and ends it (`end`: COMMIT or ROLLBACK) in one message: the events lock, then the inserts
   * (a chunk each), then `end`. So the lock is taken before any id is drawn and held while the server runs the inserts
   * and the commit, never across a round trip to this process. The NOTIFY rides on the lock's statement: NOTIFY is
   * transactional, so listeners hear it when this transaction commits, never when it rolls back (a dry run); its
   * payload names this process, whose own listener skips it.
   */
  private async appendAndEnd(sql: ClientSql, events: readonly EventValues[], end: string): Promise<number[]> {
    if (events.length === 0) {
      await sql.end(end);
      return [];
    }
    const results = await sql.end<pg.QueryResult<{ id: number }>[]>(appendAndEndMessage(events, end, this.token));
    return sortedIds(results.slice(1, -1).flatMap((r) => r.rows));
  }

  /** Names this process in its announcements. */
  private readonly token = randomUUID();

  /** One connection of its own, outside the pool: a LISTEN lasts as long as the session that issued it. */
  async listen(fn: () => void): Promise<() => Promise<void>> {
    const client = new (pgDriver().Client)({ connectionString: this.url });
    // A dropped connection only costs latency: the log feed still polls.
    client.on("error", (e) => console.error("[teamhub] the PostgreSQL connection listening for other hubs' events failed:", e.message));
    client.on("notification", (n) => {
      if (n.payload !== this.token) fn();
    });
    await client.connect();
    await client.query(`LISTEN ${EVENTS_CHANNEL}`);
    return () => client.end();
  }

  private closing: Promise<void> | undefined;

  close(): Promise<void> {
    this.closing ??= this.pool.end();
    return this.closing;
  }

  /** `body` ends the transaction itself (COMMIT or ROLLBACK), as its last message; a failure rolls it back. */
  private async inTransaction<T>(begin: string, body: (sql: ClientSql) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      return await body(new ClientSql(client, begin));
    } catch (e) {
      // Also when BEGIN's own statements failed (a lock): their transaction is open, and aborted.
      await client.query("ROLLBACK").catch((err: Error) => (broken = err));
      throw e;
    } finally {
      // A client whose ROLLBACK failed is in an unknown state: the pool closes it instead of lending it again.
      client.release(broken);
    }
  }
}
