/**
 * A pipeline acts with its creator's authority (docs/security.md#capabilities), checked when each action runs: what its
 * creator may not do fails with the reason and changes nothing else; a revoked creator's
 * pipelines stop acting; the operator's pipelines keep working as before.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { CompleteContractInput, CreateContractInput } from "../../../lib/api/contracts.ts";
import { CreatePipelineInput, PipelineLogInput } from "../../../lib/api/pipelines.ts";
import { LeadRefInput } from "../../../lib/api/leads.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { completeContractCommand, createContract, getContract } from "../contracts/contracts.service.ts";
import { createToken, revokeTokens } from "../auth/tokens.service.ts";
import { grantLead, revokeLead } from "../auth/grants.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { createPipeline, getPipeline } from "./pipelines.service.ts";
import { PipelineRunner } from "./runner.ts";

let hub: TempHub;
let runner: PipelineRunner;
const MALLORY: Principal = { name: "mallory", kind: "member" };
const DEV: Principal = { name: "dev", kind: "member" };

beforeEach(async () => {
  hub = await tempHub();
  runner = new PipelineRunner(hub);
  await createToken(hub, OPERATOR, { name: "mallory", kind: "member" });
  await createContract(hub, OPERATOR, CreateContractInput.parse({ id: "build", title: "Build", assignee: "dev" }));
  await completeContractCommand(hub, DEV, CompleteContractInput.parse({ id: "build", force: true, reason: "done by hand" }));
});
afterEach(() => hub.close());

const onPublish = (action: Record<string, unknown>) => [{ trigger: { type: "artifact_published" }, action }];
const reopener = (by: Principal, id = "reopen-build") =>
  createPipeline(hub, by, CreatePipelineInput.parse({ id, rules: onPublish({ type: "reopen_contract", contractId: "build", reason: "again" }) }));
const fire = async () => {
  await publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id: `a${hub.events.length}`, type: "custom", data: { x: 1 } }));
  await runner.drain();
};
const lastRun = async (id = "reopen-build") => (await getPipeline(hub, PipelineLogInput.parse({ id, limit: 1 }))).log[0];
const build = () => getContract(hub, { team: "default", id: "build" });

describe("pipelines act as their creator", () => {
  it("a member's pipeline may not reopen a contract its creator may not touch: the run fails, the contract is unchanged", async () => {
    await reopener(MALLORY);
    const before = await build();
    await fire();
    expect(await lastRun()).toMatchObject({ outcome: "failed", action: "reopen_contract" });
    expect((await lastRun()).error).toContain("'mallory' (member) may not reopen contract 'build'");
    expect(await build()).toEqual(before);
  });

  it("the authority is the creator's at execution time: a lead grant makes it work, revoking it stops it again", async () => {
    await reopener(MALLORY);
    await grantLead(hub, OPERATOR, LeadRefInput.parse({ name: "mallory" }));
    await fire();
    expect(await lastRun()).toMatchObject({ outcome: "executed" });
    expect((await build()).status).toBe("ready");
    const reopened = hub.events.filter((e) => e.type === "contract.status_changed").at(-1)!;
    // Acting as the creator, and caused by the event that fired the rule (the audit trail).
    expect([reopened.principal, reopened.causedBy !== null]).toEqual(["mallory", true]);
    await completeContractCommand(hub, DEV, CompleteContractInput.parse({ id: "build", force: true, reason: "done again" }));
    await revokeLead(hub, OPERATOR, LeadRefInput.parse({ name: "mallory" }));
    await fire();
    expect(await lastRun()).toMatchObject({ outcome: "failed" });
    expect((await build()).status).toBe("completed");
  });

  it("a creator whose tokens were revoked acts no more", async () => {
    await createPipeline(hub, MALLORY, CreatePipelineInput.parse({ id: "notify", rules: onPublish({ type: "notify_session", target: "dev", message: "hi" }) }));
    await fire();
    expect(await lastRun("notify")).toMatchObject({ outcome: "executed" });
    await revokeTokens(hub, OPERATOR, { name: "mallory" });
    await fire();
    expect(await lastRun("notify")).toMatchObject({
      outcome: "failed",
      error: "pipeline 'notify' acts with the authority of its creator 'mallory', who no longer holds a valid token",
    });
  });

  it("the operator's pipelines do what they always did", async () => {
    await reopener(OPERATOR);
    await fire();
    expect(await lastRun()).toMatchObject({ outcome: "executed" });
    expect((await build()).status).toBe("ready");
  });
});
