/**
 * The Quick Start chain as a demo team (docs/domain.md#quick-start-demo, docs/cli.md#the-quick-start-chain): three contracts
 * (setup-user-model → build-auth-api → write-auth-tests) and the three artifacts that complete them, each
 * derived from the one before, made in ONE transaction through the same in-transaction commands the CLI's
 * steps use, so resolution, notices and events are exactly theirs. Only an empty team takes it: a team
 * with contracts or artifacts is refused before anything is written.
 */
import { CreateContractInput } from "../../../lib/api/contracts.ts";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import type { QuickStartDemo } from "../../../lib/api/teams.ts";
import { sql } from "../../db/sql.ts";
import type { ContractRow } from "../../db/rows.ts";
import { conflict } from "../../errors.ts";
import { publishArtifactInTx } from "../artifacts/artifacts.service.ts";
import { authorize } from "../auth/capabilities.ts";
import { createContractInTx } from "../contracts/contracts.service.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "./teams.service.ts";

const CONTRACTS = [
  { id: "setup-user-model", assignee: "db-dev", title: "Create User schema", after: null, output: "schema-change" },
  { id: "build-auth-api", assignee: "api-dev", title: "Build auth endpoints", after: "setup-user-model", output: "api-contract" },
  { id: "write-auth-tests", assignee: "qa-dev", title: "Write integration tests", after: "build-auth-api", output: "test-results" },
] as const;

/** Each artifact is derived from the one before it; the first completes the first contract, and so on. */
const ARTIFACTS = [
  { id: "schema-user-model", type: "schema-change", name: "User model schema", data: { models: [{ name: "User", fields: ["email", "phone", "password"] }] } },
  { id: "api-contract-user-auth", type: "api-contract", name: "User auth API", data: { endpoints: [{ method: "POST", path: "/login" }] } },
  { id: "test-results-auth", type: "test-results", name: "Auth integration tests", data: { total: 12, passed: 12, failed: 0 } },
] as const;

export async function runQuickStartDemo({ db }: DomainDeps, actor: Principal, input: { team: string }): Promise<QuickStartDemo> {
  const team = input.team;
  return db.write("team.demo", actor.name, async (tx) => {
    await authorize(tx, actor, "team.demo", { team });
    await ensureTeam(tx, team);
    const { contracts, artifacts } = (await tx.get<{ contracts: number; artifacts: number }>(
      sql`SELECT (SELECT COUNT(*) FROM "Contract" WHERE "teamId" = ${team}) AS "contracts",
              (SELECT COUNT(*) FROM "Artifact" WHERE "teamId" = ${team} AND "archivedAt" IS NULL) AS "artifacts"`,
    ))!;
    if (contracts > 0 || artifacts > 0) {
      throw conflict(
        `team '${team}' already has ${contracts} contract(s) and ${artifacts} artifact(s); the Quick Start demo only runs in an empty team (choose another team)`,
        { field: "team", rule: "empty_team", contracts, artifacts },
      );
    }
    for (const c of CONTRACTS) {
      await createContractInTx(
        tx,
        actor,
        CreateContractInput.parse({
          team,
          id: c.id,
          assignee: c.assignee,
          title: c.title,
          dependencies: c.after ? [{ type: "contract", contractId: c.after }] : [],
          expectedOutputs: [{ artifactType: c.output }],
        }),
      );
    }
    // A reset team may hold these ids archived, numbering on from their old versions: each link names the version just made.
    const published: string[] = [];
    for (const a of ARTIFACTS) {
      const from = published.at(-1);
      const r = await publishArtifactInTx(tx, actor, PublishArtifactInput.parse({ team, ...a, derivedFrom: from ? [from] : [] }));
      published.push(`${r.artifactId}@v${r.version}`);
    }
    const rows = await tx.all<Pick<ContractRow, "id" | "status">>(sql`SELECT "id", "status" FROM "Contract" WHERE "teamId" = ${team} ORDER BY "pk"`);
    return { team, contracts: rows, artifacts: published };
  });
}
