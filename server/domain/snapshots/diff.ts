/**
 * Diff between two states (docs/domain.md#diff): per kind, what was added, removed and changed, field by field
 * (old → new). Only meaningful fields are compared: bookkeeping that moves without anything
 * really changing (updatedAt, windowStartSeq, pk, deadlines) would be noise.
 */
import { isDeepStrictEqual } from "node:util";
import type { Sql } from "../../db/connection.ts";
import {
  CURRENT,
  type DiffInput,
  type DiffKindName,
  type FieldChanges,
  type KindDiff,
  type SnapshotState,
  type StateDiff,
} from "../../../lib/api/snapshots.ts";
import type { DomainDeps } from "../deps.ts";
import { loadSnapshot } from "./snapshot-store.ts";
import { captureState } from "./state.ts";

type Entity = KindDiff["added"][number];
type Diffs = Pick<StateDiff, DiffKindName>;

const CONTRACT_FIELDS = [
  "title",
  "description",
  "assignee",
  "assigner",
  "inputs",
  "dependencies",
  "expectedOutputs",
  "acceptanceCriteria",
  "priority",
  "timeoutMs",
  "maxRetries",
  "retryCount",
  "status",
  "statusReason",
  "pinnedInputs",
  "outputs",
  "startedAt",
  "completedAt",
] as const;

function pick(id: string, source: object, fields: readonly string[]): Entity {
  const out: Entity = { id };
  for (const f of fields) out[f] = (source as Record<string, unknown>)[f];
  return out;
}

/** What a diff compares of each kind, keyed by id. */
function entities(s: SnapshotState): Record<DiffKindName, Entity[]> {
  const live = s.artifacts.index.map((a) => ({ id: a.id, version: a.version, status: a.version === null ? "rolled_back" : "active", archived: false }));
  const archived = s.artifacts.archived.map((id) => ({ id, version: null, status: "rolled_back", archived: true }));
  return {
    contracts: s.contracts.map((c) => pick(c.id, c, CONTRACT_FIELDS)),
    artifacts: [...live, ...archived],
    pipelines: s.pipelines.map((p) => pick(p.id, p, ["status", "rules"])),
    roster: s.roster.map((m) => pick(m.name, m, ["role", "status", "currentTask"])),
  };
}

function diffKind(a: Entity[], b: Entity[]): KindDiff {
  const before = new Map(a.map((e) => [e.id, e]));
  const after = new Map(b.map((e) => [e.id, e]));
  const out: KindDiff = { added: [], removed: [], changed: [] };
  for (const id of [...new Set([...before.keys(), ...after.keys()])].sort()) {
    const x = before.get(id);
    const y = after.get(id);
    if (!x) out.added.push(y!);
    else if (!y) out.removed.push(x);
    else {
      const fields: FieldChanges = {};
      for (const f of Object.keys(x)) if (f !== "id" && !isDeepStrictEqual(x[f], y[f])) fields[f] = { old: x[f], new: y[f] };
      if (Object.keys(fields).length) out.changed.push({ id, fields });
    }
  }
  return out;
}

export function diffStates(a: SnapshotState, b: SnapshotState): Diffs {
  const ea = entities(a);
  const eb = entities(b);
  return {
    contracts: diffKind(ea.contracts, eb.contracts),
    artifacts: diffKind(ea.artifacts, eb.artifacts),
    pipelines: diffKind(ea.pipelines, eb.pipelines),
    roster: diffKind(ea.roster, eb.roster),
  };
}

async function side(sql: Sql, team: string, id: string, field: "a" | "b"): Promise<SnapshotState> {
  return id === CURRENT ? captureState(sql, team) : (await loadSnapshot(sql, team, id, field)).state;
}

export async function diff(deps: DomainDeps, input: DiffInput): Promise<StateDiff> {
  return deps.db.read(async (sql) => {
    const a = await side(sql, input.team, input.a, "a");
    const b = await side(sql, input.team, input.b, "b");
    return { team: input.team, a: input.a, b: input.b, ...diffStates(a, b) };
  });
}
