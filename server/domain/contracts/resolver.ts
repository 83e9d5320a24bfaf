/**
 * Resolution (docs/domain.md#resolution), run inside the transaction of the change that may trigger it. A work queue,
 * not recursion: cascades of any depth finish in one transaction, and because dependency cycles
 * are refused when they would form, every contract completes at most once per drain.
 */
import type { WriteTx } from "../../db/database.ts";
import { maxSeq, type PinnedRef } from "../artifacts/refs.ts";
import { Pinned, json, loadByPk, type LoadedContract } from "./contracts.repo.ts";
import { autoCompletable, collectOutputs, dependenciesSatisfied } from "./criteria.ts";
import { setStatus } from "./transitions.ts";

const OPEN = `c."status" IN ('pending','ready','in_progress')`;

export class Resolution {
  private readonly queue: number[] = [];
  private readonly queued = new Set<number>();

  constructor(
    private readonly tx: WriteTx,
    private readonly team: string,
  ) {}

  enqueue(pk: number): void {
    if (this.queued.has(pk)) return;
    this.queued.add(pk);
    this.queue.push(pk);
  }

  private async enqueueWatchers(kind: "artifact" | "artifact_type" | "contract", target: string): Promise<void> {
    const rows = await this.tx.all<{ contractPk: number }>(
      `SELECT w."contractPk" FROM "ContractWatch" w JOIN "Contract" c ON c."pk" = w."contractPk"
       WHERE w."teamId" = ? AND w."kind" = ? AND w."target" = ? AND ${OPEN} ORDER BY w."contractPk"`,
      [this.team, kind, target],
    );
    for (const r of rows) this.enqueue(r.contractPk);
  }

  async afterPublish(artifactId: string, type: string): Promise<void> {
    await this.enqueueWatchers("artifact", artifactId);
    await this.enqueueWatchers("artifact_type", type);
  }

  async afterCompletion(contractId: string): Promise<void> {
    await this.enqueueWatchers("contract", contractId);
  }

  async drain(): Promise<void> {
    while (this.queue.length) {
      const pk = this.queue.shift()!;
      this.queued.delete(pk);
      await this.step(await loadByPk(this.tx, pk));
    }
  }

  private async step(c: LoadedContract): Promise<void> {
    if (c.status === "pending") {
      if (!(await dependenciesSatisfied(this.tx, c))) return;
      await becomeReady(this.tx, c, "dependencies satisfied");
    }
    if ((c.status === "ready" || c.status === "in_progress") && (await autoCompletable(this.tx, c))) {
      await completeContract(this.tx, c, "acceptance criteria met", this);
    }
  }
}

/** A new attempt starts: outputs and test results must be newer than this point. */
export async function becomeReady(tx: WriteTx, c: LoadedContract, reason: string): Promise<void> {
  const window = await maxSeq(tx);
  c.windowStartSeq = window;
  await setStatus(tx, c, "ready", reason, { sets: `"windowStartSeq" = ?`, params: [window] });
}

/** The input artifact versions of a contract: its artifact dependencies and its contract dependencies' outputs. */
export async function resolveInputs(tx: WriteTx, c: LoadedContract): Promise<PinnedRef[]> {
  const pinned: PinnedRef[] = [];
  for (const d of c.dependencies) {
    if (d.type === "artifact") {
      const v = await tx.get<PinnedRef>(
        `SELECT a."id" AS "artifactId", v."version", v."seq" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk"
         WHERE a."teamId" = ? AND a."id" = ? AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1`,
        [c.team, d.artifactId],
      );
      if (v) pinned.push(v);
    } else {
      const row = await tx.get<{ outputs: string | null }>(`SELECT "outputs" FROM "Contract" WHERE "teamId" = ? AND "id" = ?`, [c.team, d.contractId]);
      if (row?.outputs) pinned.push(...(json(Pinned, row.outputs) ?? []));
    }
  }
  return pinned;
}

export async function completeContract(tx: WriteTx, c: LoadedContract, reason: string, resolution: Resolution): Promise<void> {
  const inputs = c.pinnedInputs ?? (await resolveInputs(tx, c));
  const outputs = await collectOutputs(tx, c);
  for (const out of outputs) {
    for (const input of inputs) {
      if (input.seq === out.seq) continue;
      await tx.run(`INSERT INTO "LineageEdge" ("fromSeq","toSeq","kind","contractId") VALUES (?,?,'contract',?) ON CONFLICT DO NOTHING`, [
        input.seq,
        out.seq,
        c.id,
      ]);
    }
  }
  await setStatus(tx, c, "completed", reason, {
    sets: `"completedAt" = ?, "outputs" = ?, "pinnedInputs" = ?`,
    params: [tx.now, JSON.stringify(outputs), JSON.stringify(inputs)],
    payload: { outputs: outputs.map((o) => `${o.artifactId}@v${o.version}`) },
  });
  await resolution.afterCompletion(c.id);
}
