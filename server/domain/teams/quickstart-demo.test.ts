import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CreateContractInput } from "../../../lib/api/contracts.ts";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { isEvent } from "../../../lib/api/events.ts";
import { TeamResetInput } from "../../../lib/api/gate.ts";
import { artifactHistory, publishArtifact } from "../artifacts/artifacts.service.ts";
import { createToken } from "../auth/tokens.service.ts";
import { createContract, getContract } from "../contracts/contracts.service.ts";
import { teamReset } from "../gate/team-reset.service.ts";
import { lineage } from "../lineage/lineage.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { archiveTeam } from "./teams.service.ts";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { runQuickStartDemo } from "./quickstart-demo.ts";

let hub: TempHub;
beforeEach(async () => (hub = await tempHub()));
afterEach(async () => hub.close());

const demo = (team: string, actor: Principal = OPERATOR) => runQuickStartDemo(hub, actor, { team });

describe("the Quick Start demo", () => {
  it("makes the Quick Start chain in one transaction: three completed contracts, three artifacts, each derived from the one before", async () => {
    const before = hub.events.length;
    const result = await demo("demo");
    expect(result).toEqual({
      team: "demo",
      contracts: [
        { id: "setup-user-model", status: "completed" },
        { id: "build-auth-api", status: "completed" },
        { id: "write-auth-tests", status: "completed" },
      ],
      artifacts: ["schema-user-model@v1", "api-contract-user-auth@v1", "test-results-auth@v1"],
    });
    const tests = await getContract(hub, { team: "demo", id: "write-auth-tests" });
    expect(tests).toMatchObject({ assignee: "qa-dev", dependencies: [{ type: "contract", contractId: "build-auth-api" }] });
    expect(tests.pinnedInputs?.map((p) => p.artifactId)).toEqual(["api-contract-user-auth"]);
    const up = await lineage(hub, { team: "demo", ref: "test-results-auth", direction: "upstream", depth: 5 });
    expect(up.nodes.map((n) => n.artifactId).sort()).toEqual(["api-contract-user-auth", "schema-user-model", "test-results-auth"]);

    // The same events as the CLI's steps, appended by one write.
    const events = hub.events.slice(before);
    expect(events.filter(isEvent("contract.created")).map((e) => e.payload.id)).toEqual(["setup-user-model", "build-auth-api", "write-auth-tests"]);
    expect(events.filter(isEvent("artifact.published")).map((e) => e.payload.artifactId)).toEqual([
      "schema-user-model",
      "api-contract-user-auth",
      "test-results-auth",
    ]);
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
  });

  it("is refused in a team that has a contract or an artifact, and writes nothing", async () => {
    await createContract(hub, OPERATOR, CreateContractInput.parse({ team: "busy", id: "mine", assignee: "dev", title: "Mine" }));
    const e = await refusedWithoutWriting(hub, () => demo("busy"));
    expect(e).toMatchObject({ code: "conflict", details: { field: "team", rule: "empty_team", contracts: 1, artifacts: 0 } });
    expect(e.message).toBe(
      "team: team 'busy' already has 1 contract(s) and 0 artifact(s); the Quick Start demo only runs in an empty team (choose another team)",
    );

    await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ team: "notes", id: "note", type: "custom", data: { text: "hi" } }));
    expect((await refusedWithoutWriting(hub, () => demo("notes"))).details).toMatchObject({ contracts: 0, artifacts: 1 });

    await demo("twice");
    expect((await refusedWithoutWriting(hub, () => demo("twice"))).details).toMatchObject({ contracts: 3, artifacts: 3 });
  });

  it("is refused to a member that does not lead the team, and in an archived team, writing nothing", async () => {
    await createToken(hub, OPERATOR, { name: "alice", kind: "member" });
    const e = await refusedWithoutWriting(hub, () => demo("demo", { name: "alice", kind: "member" }));
    expect(e).toMatchObject({ code: "forbidden", details: { operation: "team.demo", rule: "lead" } });

    await demo("old");
    await archiveTeam(hub, OPERATOR, { team: "old" });
    expect((await refusedWithoutWriting(hub, () => demo("old"))).code).toBe("team_archived");
  });

  it("runs again after a team reset, linking the versions it just made rather than the archived ones", async () => {
    await demo("again");
    await teamReset(hub, OPERATOR, TeamResetInput.parse({ team: "again", confirm: true }));
    const second = await demo("again");
    expect(second.artifacts).toEqual(["schema-user-model@v2", "api-contract-user-auth@v2", "test-results-auth@v2"]);
    expect(second.contracts.every((c) => c.status === "completed")).toBe(true);
    const history = await artifactHistory(hub, { team: "again", id: "test-results-auth", includeData: false });
    expect(history.versions.find((v) => v.version === 2)?.derivedFrom).toEqual(["api-contract-user-auth@v2"]);
  });
});
