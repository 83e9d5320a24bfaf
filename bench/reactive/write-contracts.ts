/**
 * Writes the planned contracts as createContract and the transitions after it would have left
 * them: the Contract row (JSON columns from the parsed input, as createContractInTx stringifies
 * them), one ContractDependency row per dependency, and the ContractWatch index from the
 * domain's own watchesOf. One transaction, prepared statements.
 */
import type BetterSqlite3 from "better-sqlite3";
import { toSqlDate } from "../../server/db/sqlite.ts";
import { watchesOf } from "../../server/domain/contracts/contracts.service.ts";
import type { PlannedContract } from "./contract-plan.ts";
import { MAX_SEQ } from "./team-plan.ts";
import { publishedAt } from "./write-artifacts.ts";

const MINUTE = 60_000;
/** Contracts were created after the generated history, one every 10 s. */
const createdAt = (k: number) => new Date(publishedAt(MAX_SEQ).getTime() + (k + 1) * 10_000);

export function writeContracts(raw: BetterSqlite3.Database, planned: PlannedContract[]): void {
  const insertContract = raw.prepare(
    `INSERT INTO "Contract" ("teamId","id","title","description","assigner","assignee","inputs","expectedOutputs","acceptanceCriteria","priority","timeoutMs",
       "deadlineAt","maxRetries","retryCount","status","statusReason","windowStartSeq","pinnedInputs","outputs","startedAt","completedAt","createdAt","updatedAt")
     VALUES (?,?,?,?,'operator',?,?,?,?,?,NULL,NULL,?,0,?,?,?,?,?,?,?,?,?)`,
  );
  const insertDependency = raw.prepare(`INSERT INTO "ContractDependency" ("contractPk","teamId","kind","targetId","minVersion") VALUES (?,?,?,?,?)`);
  const insertWatch = raw.prepare(`INSERT OR IGNORE INTO "ContractWatch" ("contractPk","teamId","kind","target") VALUES (?,?,?,?)`);

  raw.transaction(() => {
    for (const [k, p] of planned.entries()) {
      const c = p.input;
      const created = createdAt(k);
      const started = p.started ? new Date(created.getTime() + MINUTE) : null;
      const completed = p.status === "completed" ? new Date(created.getTime() + 60 * MINUTE) : null;
      const updated = completed ?? started ?? created;
      const iso = (d: Date | null) => d && toSqlDate(d);
      const pk = Number(
        insertContract.run(
          c.team,
          c.id,
          c.title,
          c.description,
          c.assignee,
          JSON.stringify(c.inputs),
          JSON.stringify(c.expectedOutputs),
          JSON.stringify(c.acceptanceCriteria),
          c.priority,
          c.maxRetries,
          p.status,
          p.statusReason,
          MAX_SEQ,
          p.pinnedInputs && JSON.stringify(p.pinnedInputs),
          p.status === "completed" ? "[]" : null,
          iso(started),
          iso(completed),
          iso(created),
          iso(updated),
        ).lastInsertRowid,
      );
      for (const d of c.dependencies) {
        insertDependency.run(pk, c.team, d.type, d.type === "contract" ? d.contractId : d.artifactId, d.type === "artifact" ? (d.minVersion ?? null) : null);
      }
      for (const w of watchesOf(c)) insertWatch.run(pk, c.team, w.kind, w.target);
    }
  })();
}
