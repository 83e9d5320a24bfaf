/**
 * Resolution (docs/domain.md#resolution), run inside the transaction of the change that may trigger it. A work queue,
 * not recursion: cascades of any depth finish in one transaction, and because dependency cycles
 * are refused when they would form, every contract completes at most once per drain.
 *
 * The queue is worked in waves, so the database is asked once per wave rather than once per contract:
 * the wave's rows, the facts its rules read, and the watchers of what it completed, each in one query.
 * Inside a wave the contracts are resolved one by one in queue order against facts kept in memory,
 * which is what makes the order of events the one a contract-at-a-time loop gives. Rows are written
 * once, when the drain ends.
 */
import type { WriteTx } from "../../db/database.ts";
import { multiRow } from "../../db/multi-row.ts";
import { EMPTY, inList, join, raw, sql, type Query, type SqlValue } from "../../db/sql.ts";
import type { ContractRow, ContractWatchRow } from "../../db/rows.ts";
import { maxSeq } from "../artifacts/refs.ts";
import type { ContractStatus } from "../../../lib/api/contracts.ts";
import { loadJoined, type LoadedContract } from "./contracts.repo.ts";
import { Facts, autoCompletableIn, inputsIn, outputsIn, unsatisfiedDependenciesIn } from "./criteria.ts";
import { announceStatus } from "./transitions.ts";

const OPEN: ContractStatus[] = ["pending", "ready", "in_progress"];
const OPEN_SQL = sql`c."status" IN ('pending','ready','in_progress')`;
type WatchKind = "artifact" | "artifact_type" | "contract";

/** What completion writes besides the status, as the row holds it. */
type Completion = { outputs: NonNullable<ContractRow["outputs"]>; inputs: NonNullable<ContractRow["pinnedInputs"]> };

/** Open contracts of `team` watching `target` as a `kind`: one lookup in the (teamId, kind, target) index. */
const watchedAs = (kind: WatchKind, team: SqlValue, target: SqlValue) =>
  sql`EXISTS (SELECT 1 FROM "ContractWatch" w JOIN "Contract" c ON c."pk" = w."contractPk" WHERE w."teamId" = ${team} AND w."kind" = '${raw(kind)}' AND w."target" = ${target} AND ${OPEN_SQL})`;

/**
 * Whether an open contract of `team` watches a publish of `artifactId`, or of its `type`, as an SQL expression: a
 * publish asks it in a statement it runs anyway, and calls `afterPublish` only when it holds. Two lookups, since an OR
 * of the two kinds inside one makes SQLite walk every watch of the team.
 */
export const publishWatched = (team: SqlValue, artifactId: SqlValue, type: SqlValue) =>
  sql`(${watchedAs("artifact", team, artifactId)} OR ${watchedAs("artifact_type", team, type)})`;

/** One drain per Resolution: what it keeps in memory is current only until the drain has written it. */
export class Resolution {
  private queue: number[] = [];
  private readonly queued = new Set<number>();
  /** Every contract this drain has loaded, as it is now: memory, not the database, is current until `flush`. */
  private readonly contracts = new Map<number, LoadedContract>();
  /** Completed since their watchers were last looked up, with their place in the wave they completed in (-1: before the drain). */
  private completions: Array<{ id: string; at: number }> = [];
  /** Rows to write: every contract moved, and what completion adds. */
  private readonly moved = new Set<number>();
  private readonly completed = new Map<number, Completion>();
  private readonly edges: Query[] = [];
  private facts: Facts | null = null;

  constructor(
    private readonly tx: WriteTx,
    private readonly team: string,
  ) {}

  enqueue(pk: number): void {
    if (this.queued.has(pk)) return;
    this.queued.add(pk);
    this.queue.push(pk);
  }

  async afterPublish(artifactId: string, type: string): Promise<void> {
    const found = await this.watchers([
      ["artifact", [artifactId]],
      ["artifact_type", [type]],
    ]);
    // Watchers of the artifact first, then of its type, as two queries in that order would give them.
    for (const key of [`artifact ${artifactId}`, `artifact_type ${type}`]) for (const pk of found.get(key) ?? []) this.enqueue(pk);
  }

  /** Completes a contract the caller has judged (a command); its watchers start the drain. */
  async complete(c: LoadedContract, reason: string): Promise<void> {
    this.contracts.set(c.pk, c);
    await this.prepare([c]);
    await this.finish(c, reason, -1);
  }

  async drain(): Promise<void> {
    // Most publishes: nothing watches, nothing moved, nothing to write.
    if (!this.queue.length && !this.completions.length && !this.moved.size && !this.edges.length) return;
    await this.enqueueWatchers(new Map());
    while (this.queue.length) {
      const wave = this.queue;
      this.queue = [];
      const missing = wave.filter((pk) => !this.contracts.has(pk));
      if (missing.length) this.remember((await loadJoined(this.tx, sql`"Contract" c`, sql`c."pk" IN ${inList(missing)}`)).contracts);
      await this.prepare(wave.map((pk) => this.contracts.get(pk)!));
      for (const [at, pk] of wave.entries()) {
        this.queued.delete(pk);
        await this.step(this.contracts.get(pk)!, at);
      }
      await this.enqueueWatchers(new Map(wave.map((pk, at) => [pk, at])));
    }
    await this.flush();
  }

  private async step(c: LoadedContract, at: number): Promise<void> {
    const facts = this.facts!;
    if (c.status === "pending") {
      if (unsatisfiedDependenciesIn(c, facts).length) return;
      // A new attempt starts: outputs and test results must be newer than this point.
      c.windowStartSeq = facts.lastSeq!;
      await this.move(c, "ready", "dependencies satisfied");
    }
    if ((c.status === "ready" || c.status === "in_progress") && autoCompletableIn(c, facts)) await this.finish(c, "acceptance criteria met", at);
  }

  private async finish(c: LoadedContract, reason: string, at: number): Promise<void> {
    const inputs = c.pinnedInputs ?? inputsIn(c, this.facts!);
    const outputs = outputsIn(c, this.facts!);
    for (const out of outputs) for (const input of inputs) if (input.seq !== out.seq) this.edges.push(sql`(${input.seq},${out.seq},'contract',${c.id})`);
    this.completed.set(c.pk, { outputs: JSON.stringify(outputs), inputs: JSON.stringify(inputs) });
    await this.move(c, "completed", reason, { outputs: outputs.map((o) => `${o.artifactId}@v${o.version}`) });
    this.facts!.know(c.id, { status: "completed", outputs });
    this.completions.push({ id: c.id, at });
  }

  private async move(c: LoadedContract, to: ContractStatus, reason: string, payload?: { outputs: string[] }): Promise<void> {
    this.moved.add(c.pk);
    await announceStatus(this.tx, c, to, reason, payload);
  }

  /** The facts a batch of contracts is judged on; an attempt that has not begun yet (pending) has no evidence to load. */
  private async prepare(cs: LoadedContract[]): Promise<void> {
    if (!this.facts) {
      this.facts = new Facts(this.tx, this.team, await maxSeq(this.tx));
      for (const c of this.contracts.values()) this.facts.know(c.id, { status: c.status, outputs: c.outputs });
    }
    await this.facts.load(cs, { dependencies: true, criteria: true });
    await this.facts.load(
      cs.filter((c) => c.status === "ready" || c.status === "in_progress"),
      { evidence: true },
    );
  }

  private remember(loaded: Map<number, LoadedContract>): void {
    for (const [pk, c] of loaded) {
      if (this.contracts.has(pk)) continue;
      this.contracts.set(pk, c);
      this.facts?.know(c.id, { status: c.status, outputs: c.outputs });
    }
  }

  /**
   * Open contracts watching these targets, in contract order, by `<kind> <target>`, in one query; loads the ones not in
   * memory yet.
   */
  private async watchers(wanted: ReadonlyArray<readonly [WatchKind, string[]]>): Promise<Map<string, number[]>> {
    const { contracts, rows } = await loadJoined<{ watchKind: ContractWatchRow["kind"]; watched: ContractWatchRow["target"] }>(
      this.tx,
      sql`"ContractWatch" w JOIN "Contract" c ON c."pk" = w."contractPk"`,
      sql`w."teamId" = ${this.team} AND (${join(
        wanted.map(([kind, targets]) => sql`(w."kind" = ${kind} AND w."target" IN ${inList(targets)})`),
        " OR ",
      )}) AND ${OPEN_SQL}`,
      sql`w."kind" AS "watchKind", w."target" AS "watched"`,
    );
    this.remember(contracts);
    const found = new Map<string, number[]>();
    for (const r of rows) {
      if (!OPEN.includes(this.contracts.get(r.pk)!.status)) continue;
      const key = `${r.watchKind} ${r.watched}`;
      const list = found.get(key) ?? found.set(key, []).get(key)!;
      if (list.at(-1) !== r.pk) list.push(r.pk);
    }
    return found;
  }

  /**
   * The next wave: the open watchers of each contract completed, in completion order then contract order, as a
   * contract-at-a-time loop would have queued them, which skipped a watcher still queued in the wave when
   * the contract completed (`place` in the wave) and judged the others open as they are now, at the wave's end.
   */
  private async enqueueWatchers(place: Map<number, number>): Promise<void> {
    const done = this.completions;
    if (!done.length) return;
    this.completions = [];
    const found = await this.watchers([["contract", done.map((d) => d.id)]]);
    for (const { id, at } of done) for (const pk of found.get(`contract ${id}`) ?? []) if ((place.get(pk) ?? -1) <= at) this.enqueue(pk);
  }

  /** Writes the rows of every contract moved, once each with its final values, and the lineage of every completion. */
  private async flush(): Promise<void> {
    const moved = [...this.moved].map((pk) => this.contracts.get(pk)!);
    const update = (sets: Query) => (values: Query) =>
      sql`UPDATE "Contract" SET "status" = v."column2", "statusReason" = v."column3", "windowStartSeq" = v."column4", "updatedAt" = ${this.tx.now}${sets}
       FROM (VALUES ${values}) AS v WHERE "Contract"."pk" = v."column1"`;
    await multiRow(
      this.tx,
      moved
        .filter((c) => !this.completed.has(c.pk))
        .map((c) => sql`(CAST(${c.pk} AS INTEGER),${c.status},${c.statusReason},CAST(${c.windowStartSeq} AS INTEGER))`),
      update(EMPTY),
    );
    await multiRow(
      this.tx,
      moved
        .filter((c) => this.completed.has(c.pk))
        .map((c) => {
          const { outputs, inputs } = this.completed.get(c.pk)!;
          return sql`(CAST(${c.pk} AS INTEGER),${c.status},${c.statusReason},CAST(${c.windowStartSeq} AS INTEGER),${outputs},${inputs})`;
        }),
      update(sql`, "completedAt" = ${this.tx.now}, "outputs" = v."column5", "pinnedInputs" = v."column6"`),
    );
    await multiRow(
      this.tx,
      this.edges,
      (values) => sql`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind","contractId") VALUES ${values} ON CONFLICT DO NOTHING`,
    );
  }
}
