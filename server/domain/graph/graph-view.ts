/**
 * The canvas read model: every contract and artifact of a team with the edges between them, in
 * one read snapshot and a fixed number of queries whatever the team's size. Staleness is the
 * lineage code's verdict (computeStale); nothing here decides it again.
 */
import { teamStateOf } from "../knowledge/state.service.ts";
import type { StateUpdateView } from "../../../lib/api/knowledge.ts";
import type { ArtifactRow, ArtifactVersionRow, ContractRow, ContractDependencyRow } from "../../db/rows.ts";
import type { ArtifactGraphNode, GraphEdge, GraphEdgeKind, GraphInput, GraphNode, GraphView } from "../../../lib/api/graph.ts";
import { artifactKey, contractKey } from "../../../lib/api/graph.ts";
import { toLoaded } from "../contracts/contracts.repo.ts";
import type { DomainDeps } from "../deps.ts";
import { computeStale } from "../lineage/compute-stale.ts";
import { byText, groupBy } from "../lineage/graph.ts";
import { inList, sql } from "../../db/sql.ts";

type ArtifactHead = Pick<ArtifactRow, "id" | "type" | "name" | "latestVersion"> & {
  archived: number;
  seq: ArtifactVersionRow["seq"] | null;
  version: ArtifactVersionRow["version"] | null;
  publisher: ArtifactVersionRow["publisher"] | null;
  contractId: ArtifactVersionRow["contractId"];
};

/** Each artifact with its current (newest active) version, found by probing the version index from the top. */
const artifactHeads = (team: string) => sql`SELECT a."id", a."type", a."name", a."latestVersion", a."archivedAt" IS NOT NULL AS "archived",
    cv."seq", cv."version", cv."publisher", cv."contractId"
  FROM "Artifact" a
  LEFT JOIN "ArtifactVersion" cv ON cv."seq" = (SELECT v."seq" FROM "ArtifactVersion" v WHERE v."artifactPk" = a."pk" AND v."status" = 'active' ORDER BY v."version" DESC LIMIT 1)
  WHERE a."teamId" = ${team}`;

/** Inputs named in the current versions' derivedFrom (not links made when a contract completed: the contract shows those). */
const derivedInputs = (seqs: number[]) => sql`SELECT fa."id" AS "fromId", ta."id" AS "toId"
  FROM "LineageEdge" e
  JOIN "ArtifactVersion" f ON f."seq" = e."fromSeq" JOIN "Artifact" fa ON fa."pk" = f."artifactPk"
  JOIN "ArtifactVersion" t ON t."seq" = e."toSeq" JOIN "Artifact" ta ON ta."pk" = t."artifactPk"
  WHERE e."kind" = 'derived' AND e."toSeq" IN ${inList(seqs)}`;

const memberState = (u: StateUpdateView | undefined) => (u ? { status: u.status, task: u.task, at: u.createdAt } : null);

export async function graphView({ db }: DomainDeps, input: GraphInput): Promise<GraphView> {
  return db.read(async (s) => {
    const heads = await s.all<ArtifactHead>(artifactHeads(input.team));
    const stale = await computeStale(s, input.team);
    const live = heads.filter((h) => !h.archived);
    const derived = await s.all<{ fromId: ArtifactRow["id"]; toId: ArtifactRow["id"] }>(derivedInputs(live.flatMap((h) => (h.seq === null ? [] : [h.seq]))));
    const contracts = await s.all<ContractRow>(sql`SELECT * FROM "Contract" WHERE "teamId" = ${input.team}`);
    const dependencies = groupBy(
      await s.all<ContractDependencyRow>(sql`SELECT * FROM "ContractDependency" WHERE "teamId" = ${input.team} ORDER BY "id"`),
      (d) => d.contractPk,
      (d) => d,
    );

    const edges = new Map<string, GraphEdge>();
    const link = (from: string, to: string, kind: GraphEdgeKind) => edges.set(`${from} ${to} ${kind}`, { from, to, kind });
    for (const e of derived) if (e.fromId !== e.toId) link(artifactKey(e.fromId), artifactKey(e.toId), "derived_from");

    const states = new Map((await teamStateOf(s, input.team, 0)).members.map((m) => [m.member, m.latest]));
    const contractIds = new Set(contracts.map((c) => c.id));
    const nodes: GraphNode[] = [];
    for (const row of contracts) {
      const c = toLoaded(row, dependencies.get(row.pk) ?? []);
      const key = contractKey(c.id);
      nodes.push({
        kind: "contract",
        key,
        id: c.id,
        title: c.title,
        assignee: c.assignee,
        status: c.status,
        statusReason: c.statusReason,
        priority: c.priority,
        memberState: memberState(states.get(c.assignee)),
      });
      for (const d of c.dependencies) {
        if (d.type === "artifact") link(artifactKey(d.artifactId), key, "needs_artifact");
        else if (contractIds.has(d.contractId)) link(contractKey(d.contractId), key, "depends_on");
      }
      for (const o of c.expectedOutputs) if (o.artifactId) link(key, artifactKey(o.artifactId), "output");
      for (const o of c.outputs ?? []) link(key, artifactKey(o.artifactId), "output");
    }
    for (const h of live) if (h.contractId && contractIds.has(h.contractId)) link(contractKey(h.contractId), artifactKey(h.id), "output");

    // Archived artifacts are hidden like everywhere else, unless a contract still names them.
    const named = new Set([...edges.values()].flatMap((e) => [e.from, e.to]));
    const byId = new Map(heads.map((h) => [h.id, h]));
    const shown = new Map<string, ArtifactHead | null>(live.map((h) => [h.id, h]));
    for (const key of named) {
      const id = key.startsWith("artifact:") ? key.slice("artifact:".length) : null;
      if (id !== null && !shown.has(id)) shown.set(id, byId.get(id) ?? null);
    }
    for (const [id, h] of shown) nodes.push(artifactNode(id, h, stale.get(id)?.reasons ?? []));

    nodes.sort((a, b) => byText(a.key, b.key));
    return { team: input.team, nodes, edges: [...edges.values()].sort((a, b) => byText(a.from, b.from) || byText(a.to, b.to) || byText(a.kind, b.kind)) };
  });
}

function artifactNode(id: string, h: ArtifactHead | null, staleReasons: ArtifactGraphNode["staleReasons"]): ArtifactGraphNode {
  const base = { kind: "artifact" as const, key: artifactKey(id), id, stale: staleReasons.length > 0, staleReasons };
  if (!h) return { ...base, type: null, name: id, version: null, latestVersion: 0, status: "unpublished", publisher: null };
  return {
    ...base,
    type: h.type,
    name: h.name,
    version: h.version,
    latestVersion: h.latestVersion,
    status: h.archived ? "archived" : h.version === null ? "rolled_back" : "active",
    publisher: h.publisher,
  };
}
