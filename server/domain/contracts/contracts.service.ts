/**
 * Contracts (docs/domain.md#contracts): assignments with dependencies and acceptance criteria that resolve themselves.
 * Every operation is one transaction that checks who may act and from which state, writes the
 * change and its events, and runs resolution before it commits.
 */
import { assigneeHeld } from "../accounts/limits.ts";
import type { WriteTx } from "../../db/database.ts";
import { join, sql } from "../../db/sql.ts";
import { jsonColumn, type ArtifactRow, type ArtifactVersionRow, type ContractDependencyRow, type ContractRow } from "../../db/rows.ts";
import { DomainError, conflict, invalid, invalidField, type Issue } from "../../errors.ts";
import { JsonValue } from "../../../lib/api/common.ts";
import type {
  CompleteContractInput,
  ContractChange,
  ContractPage,
  ContractRefInput,
  ContractView,
  CreateContract,
  Dependency,
  DependencyChangeInput,
  ListContractsInput,
  ReasonInput,
  ReassignContractInput,
  ReopenContractInput,
  StartResult,
} from "../../../lib/api/contracts.ts";
import { recordRead } from "../artifacts/artifacts.service.ts";
import { maxSeq } from "../artifacts/refs.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { findContract, loadByPk, loadContract, toLoaded, toView, type LoadedContract } from "./contracts.repo.ts";
import { dependenciesSatisfied, resolveInputs, unmetCriteria } from "./criteria.ts";
import { effectsOf } from "./effects.ts";
import { cyclePath } from "./cycles.ts";
import { noteChange, noteCreated, noteReopen } from "./notices.ts";
import { Resolution } from "./resolver.ts";
import { assertActor, assertCan, setStatus, type Operation } from "./transitions.ts";

type Watch = { kind: "artifact" | "artifact_type" | "contract"; target: string };

/** Everything a contract's resolution looks at, for the ContractWatch index (also rebuilt by snapshot restores). */
export function watchesOf(c: Pick<LoadedContract, "dependencies" | "acceptanceCriteria" | "expectedOutputs">): Watch[] {
  const w: Watch[] = [];
  for (const d of c.dependencies) w.push(d.type === "contract" ? { kind: "contract", target: d.contractId } : { kind: "artifact", target: d.artifactId });
  for (const k of c.acceptanceCriteria) {
    if (k.type === "contract_completed") w.push({ kind: "contract", target: k.contractId });
    if (k.type === "artifact_published" || k.type === "tests_passing") w.push({ kind: "artifact", target: k.artifactId });
  }
  for (const o of c.expectedOutputs) w.push(o.artifactId ? { kind: "artifact", target: o.artifactId } : { kind: "artifact_type", target: o.artifactType });
  return w;
}

async function writeWatches(tx: WriteTx, c: LoadedContract): Promise<void> {
  await tx.run(sql`DELETE FROM "ContractWatch" WHERE "contractPk" = ${c.pk}`);
  for (const w of watchesOf(c)) {
    await tx.run(
      sql`INSERT INTO "ContractWatch" ("contractPk","teamId","kind","target") VALUES (${c.pk},${c.team},${w.kind},${w.target}) ON CONFLICT DO NOTHING`,
    );
  }
}

const depKey = (d: Dependency) => (d.type === "contract" ? `contract:${d.contractId}` : `artifact:${d.artifactId}`);

export async function insertDependency(tx: WriteTx, contractPk: number, team: string, d: Dependency): Promise<void> {
  await tx.run(
    sql`INSERT INTO "ContractDependency" ("contractPk","teamId","kind","targetId","minVersion") VALUES (${contractPk},${team},${d.type},${d.type === "contract" ? d.contractId : d.artifactId},${d.type === "artifact" ? (d.minVersion ?? null) : null})`,
  );
}

/** The preamble of every command on an existing contract: writable team, the contract, who, and from which state. */
async function contractFor(tx: WriteTx, actor: Principal, input: ContractRefInput, op: Operation): Promise<LoadedContract> {
  await ensureTeam(tx, input.team);
  const c = await loadContract(tx, input.team, input.id);
  await assertActor(tx, c, actor, op);
  assertCan(c, op);
  return c;
}

async function checkReferences(tx: WriteTx, input: CreateContract): Promise<void> {
  const issues: Issue[] = [];
  const seen = new Set<string>();
  for (const [i, d] of input.dependencies.entries()) {
    if (seen.has(depKey(d))) issues.push({ field: `dependencies[${i}]`, rule: "unique", message: `duplicates an earlier dependency on ${depKey(d)}` });
    seen.add(depKey(d));
    if (d.type !== "contract") continue;
    if (d.contractId === input.id) {
      issues.push({ field: `dependencies[${i}].contractId`, rule: "no_cycle", message: `a contract cannot depend on itself (${input.id} → ${input.id})` });
    } else if (!(await findContract(tx, input.team, d.contractId))) {
      issues.push({
        field: `dependencies[${i}].contractId`,
        rule: "exists",
        message: `contract '${d.contractId}' does not exist in team '${input.team}'`,
        received: d.contractId,
      });
    }
  }
  for (const [i, k] of input.acceptanceCriteria.entries()) {
    if (k.type === "contract_completed") {
      if (k.contractId === input.id) {
        issues.push({ field: `acceptanceCriteria[${i}].contractId`, rule: "no_cycle", message: "a contract cannot wait for its own completion" });
      } else if (!(await findContract(tx, input.team, k.contractId))) {
        issues.push({
          field: `acceptanceCriteria[${i}].contractId`,
          rule: "exists",
          message: `contract '${k.contractId}' does not exist in team '${input.team}'`,
          received: k.contractId,
        });
      }
    }
    if (k.type === "all_outputs_published" && input.expectedOutputs.length === 0) {
      issues.push({ field: `acceptanceCriteria[${i}]`, rule: "requires_outputs", message: "all_outputs_published needs at least one expectedOutputs entry" });
    }
  }
  if (issues.length) throw invalid(issues);
}

/** A contract command changes only its team's state: it may run beside other teams' writes (Database.write). */
const teamWrite = <T>(deps: DomainDeps, name: string, actor: Principal, team: string, fn: (tx: WriteTx) => Promise<T>) =>
  deps.db.write(name, actor.name, fn, { team });

export async function createContract(deps: DomainDeps, actor: Principal, input: CreateContract): Promise<ContractChange> {
  return teamWrite(deps, "contract.create", actor, input.team, (tx) => createContractInTx(tx, actor, input));
}

/** Creation inside a caller's transaction (pipeline actions, replays); the assigner is the actor. */
export async function createContractInTx(tx: WriteTx, actor: Principal, input: CreateContract): Promise<ContractChange> {
  await ensureTeam(tx, input.team);
  if (await findContract(tx, input.team, input.id)) throw conflict(`contract '${input.id}' already exists in team '${input.team}'`, { field: "id" });
  await checkReferences(tx, input);
  const deadline = input.timeoutMs ? new Date(tx.now.getTime() + input.timeoutMs) : null;
  const r = await tx.get<Pick<ContractRow, "pk">>(
    sql`INSERT INTO "Contract" ("teamId","id","title","description","assigner","assignee","inputs","expectedOutputs","acceptanceCriteria",
       "priority","timeoutMs","deadlineAt","maxRetries","retryCount","status","statusReason","windowStartSeq","createdAt","updatedAt")
     VALUES (${input.team},${input.id},${input.title},${input.description},${actor.name},${input.assignee},${JSON.stringify(input.inputs)},${JSON.stringify(input.expectedOutputs)},${JSON.stringify(input.acceptanceCriteria)},${input.priority},${input.timeoutMs ?? null},${deadline},${input.maxRetries},0,'pending',NULL,${await maxSeq(tx)},${tx.now},${tx.now}) RETURNING "pk"`,
  );
  for (const d of input.dependencies) await insertDependency(tx, r!.pk, input.team, d);
  const c = await loadByPk(tx, r!.pk);
  noteCreated(tx, c.team, c.id);
  await writeWatches(tx, c);
  await tx.emit({ teamId: input.team, type: "contract.created", subject: `contract:${c.id}`, payload: { ...toView(c) } });
  const resolution = new Resolution(tx, input.team);
  resolution.enqueue(c.pk);
  await resolution.drain();
  return { ...toView(await loadByPk(tx, c.pk)), effects: effectsOf(tx) };
}

export async function getContract(deps: DomainDeps, input: ContractRefInput): Promise<ContractView> {
  return deps.db.read(async (s) => toView(await loadContract(s, input.team, input.id)));
}

export async function listContracts(deps: DomainDeps, input: ListContractsInput): Promise<ContractPage> {
  const where = [sql`"teamId" = ${input.team}`];
  if (input.status) where.push(sql`"status" = ${input.status}`);
  if (input.assignee) where.push(sql`"assignee" = ${input.assignee}`);
  if (input.assigner) where.push(sql`"assigner" = ${input.assigner}`);
  if (input.cursor !== undefined) where.push(sql`"pk" > ${input.cursor}`);
  return deps.db.read(async (s) => {
    const rows = await s.all<ContractRow>(sql`SELECT * FROM "Contract" WHERE ${join(where, " AND ")} ORDER BY "pk" LIMIT ${input.limit + 1}`);
    const page = rows.slice(0, input.limit);
    const deps2 = page.length
      ? await s.all<Pick<ContractDependencyRow, "contractPk" | "kind" | "targetId" | "minVersion">>(
          sql`SELECT "contractPk","kind","targetId","minVersion" FROM "ContractDependency" WHERE "contractPk" IN (${join(
            page.map((p) => sql`${p.pk}`),
            ",",
          )}) ORDER BY "id"`,
        )
      : [];
    return {
      items: page.map((row) =>
        toView(
          toLoaded(
            row,
            deps2.filter((d) => d.contractPk === row.pk),
          ),
        ),
      ),
      nextCursor: rows.length > input.limit ? page[page.length - 1].pk : null,
    };
  });
}

/** Starts work: pins the input artifact versions, records their reads, returns them. */
export async function startContract(deps: DomainDeps, actor: Principal, input: ContractRefInput): Promise<StartResult> {
  return teamWrite(deps, "contract.start", actor, input.team, async (tx) => {
    const c = await contractFor(tx, actor, input, "start");
    const pinned = await resolveInputs(tx, c);
    await setStatus(tx, c, "in_progress", `started by ${actor.name}`, {
      sets: sql`"startedAt" = ${tx.now}, "pinnedInputs" = ${JSON.stringify(pinned)}`,
      payload: { pinnedInputs: pinned.map((p) => `${p.artifactId}@v${p.version}`) },
    });
    const resolvedInputs: StartResult["resolvedInputs"] = [];
    for (const p of pinned) {
      const v = (await tx.get<Pick<ArtifactVersionRow, "data"> & Pick<ArtifactRow, "type" | "name">>(
        sql`SELECT v."data", a."type", a."name" FROM "ArtifactVersion" v JOIN "Artifact" a ON a."pk" = v."artifactPk" WHERE v."seq" = ${p.seq}`,
      ))!;
      await recordRead(tx, c.team, p, actor);
      resolvedInputs.push({ artifactId: p.artifactId, version: p.version, type: v.type, name: v.name, data: jsonColumn(JsonValue, v.data) });
    }
    return { contract: toView(await loadByPk(tx, c.pk)), inputs: c.inputs, resolvedInputs };
  });
}

/** Completes when the criteria hold; otherwise refuses, listing what is unmet, unless forced with a reason. */
export async function completeContractCommand(deps: DomainDeps, actor: Principal, input: CompleteContractInput): Promise<ContractChange> {
  if (input.force && !input.reason) throw invalidField("reason", "required_with_force", "is required when force is true: say why the criteria are overridden");
  return teamWrite(deps, "contract.complete", actor, input.team, async (tx) => {
    const c = await contractFor(tx, actor, input, "complete");
    const unmet = await unmetCriteria(tx, c);
    if (unmet.length && !input.force) {
      throw new DomainError(
        "precondition_failed",
        `contract '${c.id}' cannot complete: ${unmet.map((u) => `${u.criterion.type} (${u.reason})`).join("; ")}. Pass force with a reason to override`,
        { id: c.id, unmet },
      );
    }
    const reason = unmet.length ? `forced by ${actor.name}: ${input.reason}` : (input.summary ?? `completed by ${actor.name}`);
    const resolution = new Resolution(tx, c.team);
    await resolution.complete(c, reason);
    await resolution.drain();
    return { ...toView(await loadByPk(tx, c.pk)), effects: effectsOf(tx) };
  });
}

export async function failContract(deps: DomainDeps, actor: Principal, input: ReasonInput): Promise<ContractView> {
  return teamWrite(deps, "contract.fail", actor, input.team, async (tx) => {
    const c = await contractFor(tx, actor, input, "fail");
    await setStatus(tx, c, "failed", input.reason);
    return toView(c);
  });
}

export async function reopenContract(deps: DomainDeps, actor: Principal, input: ReopenContractInput): Promise<ContractView> {
  return teamWrite(deps, "contract.reopen", actor, input.team, (tx) => reopenInTx(tx, actor, input));
}

/**
 * Back to pending or ready, as a new attempt (retryCount + 1). The criteria are not re-checked
 * at once: reopening says the current evidence is not enough. Dependents that were only ready
 * go back to pending, since what they depend on is no longer done.
 */
export async function reopenInTx(tx: WriteTx, actor: Principal, input: ReopenContractInput): Promise<ContractView> {
  const c = await contractFor(tx, actor, input, "reopen");
  if (c.retryCount >= c.maxRetries) {
    throw new DomainError(
      "precondition_failed",
      `contract '${c.id}' has been reopened ${c.retryCount} time(s); maxRetries is ${c.maxRetries}, so it cannot be reopened again`,
      { id: c.id, retryCount: c.retryCount, maxRetries: c.maxRetries },
    );
  }
  noteReopen(tx, c, input.reason);
  c.retryCount += 1;
  const deadline = c.timeoutMs ? new Date(tx.now.getTime() + c.timeoutMs) : null;
  const ready = await dependenciesSatisfied(tx, c);
  const window = await maxSeq(tx);
  c.windowStartSeq = window;
  await setStatus(tx, c, ready ? "ready" : "pending", input.reason, {
    sets: sql`"retryCount" = ${c.retryCount}, "windowStartSeq" = ${window}, "deadlineAt" = ${deadline}, "completedAt" = NULL, "startedAt" = NULL, "outputs" = NULL, "pinnedInputs" = NULL`,
    payload: { operation: "reopen" },
  });
  const dependents = await tx.all<Pick<ContractRow, "pk">>(
    sql`SELECT c."pk" FROM "ContractDependency" d JOIN "Contract" c ON c."pk" = d."contractPk"
     WHERE d."teamId" = ${c.team} AND d."kind" = 'contract' AND d."targetId" = ${c.id} AND c."status" = 'ready'`,
  );
  for (const d of dependents) {
    await setStatus(tx, await loadByPk(tx, d.pk), "pending", `dependency '${c.id}' was reopened`);
  }
  return toView(await loadByPk(tx, c.pk));
}

export async function reassignContract(deps: DomainDeps, actor: Principal, input: ReassignContractInput): Promise<ContractView> {
  return teamWrite(deps, "contract.reassign", actor, input.team, async (tx) => {
    const c = await contractFor(tx, actor, input, "reassign");
    if (c.assignee === input.assignee)
      throw invalidField("assignee", "different", `contract '${c.id}' is already assigned to '${input.assignee}'`, input.assignee);
    const from = c.assignee;
    noteChange(tx, c);
    await tx.run(sql`UPDATE "Contract" SET "assignee" = ${input.assignee}, "updatedAt" = ${tx.now} WHERE "pk" = ${c.pk}`);
    c.assignee = input.assignee;
    await tx.emit({ teamId: c.team, type: "contract.reassigned", subject: `contract:${c.id}`, payload: { id: c.id, from, to: input.assignee } });
    // The new assignee has not started anything: work in progress goes back to ready.
    if (c.status === "in_progress") {
      await setStatus(tx, c, "ready", `reassigned from ${from} to ${input.assignee}`, { sets: sql`"startedAt" = NULL, "pinnedInputs" = NULL` });
    }
    return toView(await loadByPk(tx, c.pk));
  });
}

export async function addDependency(deps: DomainDeps, actor: Principal, input: DependencyChangeInput): Promise<ContractView> {
  return teamWrite(deps, "contract.add_dependency", actor, input.team, async (tx) => {
    const c = await contractFor(tx, actor, input, "change_dependencies");
    const d = input.dependency;
    if (c.dependencies.some((x) => depKey(x) === depKey(d))) {
      throw invalidField("dependency", "unique", `contract '${c.id}' already depends on ${depKey(d)}`);
    }
    if (d.type === "contract") {
      if (!(await findContract(tx, c.team, d.contractId))) {
        throw invalidField("dependency.contractId", "exists", `contract '${d.contractId}' does not exist in team '${c.team}'`, d.contractId);
      }
      const cycle = await cyclePath(tx, c.team, c.id, d.contractId);
      if (cycle) {
        throw invalidField("dependency.contractId", "no_cycle", `would create a dependency cycle: ${cycle.join(" → ")}`, d.contractId);
      }
    }
    await insertDependency(tx, c.pk, c.team, d);
    return afterDependencyChange(tx, c.pk, { added: d });
  });
}

export async function removeDependency(deps: DomainDeps, actor: Principal, input: DependencyChangeInput): Promise<ContractView> {
  return teamWrite(deps, "contract.remove_dependency", actor, input.team, async (tx) => {
    const c = await contractFor(tx, actor, input, "change_dependencies");
    const d = input.dependency;
    const target = d.type === "contract" ? d.contractId : d.artifactId;
    const r = await tx.run(sql`DELETE FROM "ContractDependency" WHERE "contractPk" = ${c.pk} AND "kind" = ${d.type} AND "targetId" = ${target}`);
    if (r.changes === 0) throw invalidField("dependency", "exists", `contract '${c.id}' does not depend on ${depKey(d)}`);
    return afterDependencyChange(tx, c.pk, { removed: d });
  });
}

async function afterDependencyChange(tx: WriteTx, pk: number, change: { added?: Dependency; removed?: Dependency }): Promise<ContractView> {
  const c = await loadByPk(tx, pk);
  await writeWatches(tx, c);
  await tx.emit({ teamId: c.team, type: "contract.dependencies_changed", subject: `contract:${c.id}`, payload: { id: c.id, ...change } });
  const satisfied = await dependenciesSatisfied(tx, c);
  if (c.status === "ready" && !satisfied) {
    // A removal can find it unsatisfied too, when an input was rolled back since it became ready.
    await setStatus(tx, c, "pending", change.added ? `new dependency on ${depKey(change.added)} is not satisfied` : "dependencies are no longer satisfied");
  } else if (c.status === "pending" && satisfied) {
    const resolution = new Resolution(tx, c.team);
    resolution.enqueue(c.pk);
    await resolution.drain();
  }
  return toView(await loadByPk(tx, pk));
}

/** Fails contracts whose deadline has passed (docs/domain.md#timeouts); the scheduler calls this, also right after a restart. */
export async function failOverdue(deps: DomainDeps, actor: Principal, now = new Date()): Promise<string[]> {
  const due = await deps.db.read((s) =>
    s.all<Pick<ContractRow, "teamId" | "id">>(
      sql`SELECT "teamId","id" FROM "Contract" WHERE "status" IN ('pending','ready','in_progress') AND "deadlineAt" <= ${now} ORDER BY "deadlineAt" LIMIT 100`,
    ),
  );
  const failed: string[] = [];
  for (const d of due) {
    const done = await deps.db.write("contract.timeout", actor.name, async (tx) => {
      const c = await findContract(tx, d.teamId, d.id);
      // Re-checked inside the write: it may have completed since the read above.
      if (!c || !["pending", "ready", "in_progress"].includes(c.status) || !c.deadlineAt || c.deadlineAt > now) return false;
      // Its assignee waits for a usage window to reset: the deadline moves by the time held when it is released (docs/limits.md).
      if (await assigneeHeld(tx, d.teamId, c.assignee)) return false;
      await setStatus(tx, c, "failed", "timeout", { payload: { deadlineAt: c.deadlineAt } });
      return true;
    });
    if (done) failed.push(`${d.teamId}/${d.id}`);
  }
  return failed;
}
