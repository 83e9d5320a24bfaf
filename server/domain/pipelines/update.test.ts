import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { isEvent } from "../../../lib/api/events.ts";
import { LeadRefInput } from "../../../lib/api/leads.ts";
import { CreatePipelineInput, PipelineLogInput, UpdatePipelineInput } from "../../../lib/api/pipelines.ts";
import { issues, refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { grantLead } from "../auth/grants.service.ts";
import { createToken } from "../auth/tokens.service.ts";
import { inboxOf } from "../chat/messages.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { createPipeline, getPipeline, pausePipeline, updatePipeline } from "./pipelines.service.ts";
import { PipelineRunner } from "./runner.ts";

let hub: TempHub;
let runner: PipelineRunner;
beforeEach(async () => {
  hub = await tempHub();
  runner = new PipelineRunner(hub);
  for (const name of ["alice", "bob", "lead"]) await createToken(hub, OPERATOR, { name, kind: "member" });
  await grantLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "default", name: "lead" }));
});
afterEach(async () => hub.close());

const ALICE: Principal = { name: "alice", kind: "member" };
const BOB: Principal = { name: "bob", kind: "member" };
const LEAD: Principal = { name: "lead", kind: "member" };

const notify = (message: string, artifactType = "test-results") => ({
  trigger: { type: "artifact_published", artifactType },
  action: { type: "notify_session", target: "qa-dev", message },
});
const update = async (rules: unknown[], actor: Principal = OPERATOR, id = "watch") =>
  updatePipeline(hub, actor, parseOrThrow(UpdatePipelineInput, { id, rules }));
const publish = (id: string) =>
  publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id, type: "test-results", data: { total: 1, passed: 1, failed: 0 } }));
const inbox = async () => (await hub.db.read((sql) => inboxOf(sql, "default", "qa-dev"))).map((m) => m.text).reverse();

describe("editing a pipeline", () => {
  beforeEach(() => createPipeline(hub, ALICE, CreatePipelineInput.parse({ id: "watch", rules: [notify("first")] })));

  it("replaces the rules, keeps status and creator, and logs the rules it replaced", async () => {
    await pausePipeline(hub, OPERATOR, { team: "default", id: "watch" });
    const view = await update([notify("second"), { ...notify("third", "api-contract"), name: "api" }]);
    expect(view).toMatchObject({ id: "watch", status: "paused", createdBy: "alice" });
    expect(view.rules.map((r) => [r.name, r.action.type === "notify_session" && r.action.message])).toEqual([
      [undefined, "second"],
      ["api", "third"],
    ]);
    expect((await getPipeline(hub, PipelineLogInput.parse({ id: "watch" }))).rules).toEqual(view.rules);
    const [edited] = hub.events.filter(isEvent("pipeline.updated"));
    expect(edited).toMatchObject({ subject: "pipeline:watch", principal: "operator" });
    expect(edited.payload).toMatchObject({ id: "watch", rules: 2, triggers: "artifact_published", previousRules: [notify("first")] });
  });

  it("acts with the new rules on events after the edit only", async () => {
    await publish("before-edit");
    await update([notify("after: ${artifact.id}")]);
    await publish("after-edit");
    await runner.drain();
    expect(await inbox()).toEqual(["after: after-edit"]);
  });

  it("refuses bad rules exactly as create does, naming the field, and writes nothing", async () => {
    const bad = await refusedWithoutWriting(hub, () => update([{ ...notify("x"), condition: "data.failed >" }]));
    expect(bad.code).toBe("invalid_input");
    expect(issues(bad)[0]).toMatchObject({ field: "rules[0].condition" });
    const typo = await refusedWithoutWriting(hub, () =>
      update([notify("ok"), { ...notify("x"), action: { type: "notify_session", target: "qa-dev", message: "${verison}" } }]),
    );
    expect(issues(typo)[0].field).toMatch(/^rules\[1\]\.action\.message/);
    expect(issues(await refusal(update([]))).map((i) => [i.field, i.message])).toEqual([["rules", "needs at least one rule"]]);
    expect((await refusedWithoutWriting(hub, () => update([notify("x")], OPERATOR, "nope"))).code).toBe("not_found");
  });

  it("is for its creator and the team's leads: anyone else is refused and nothing is written", async () => {
    const e = await refusedWithoutWriting(hub, () => update([notify("mine now")], BOB));
    expect(e).toMatchObject({ code: "forbidden", details: { operation: "pipeline.update", rule: "owner", principal: "bob" } });
    expect(e.message).toBe("'bob' (member) may not change the rules of pipeline 'watch': only its creator, a lead of team 'default' or the operator may");
    expect((await update([notify("by alice")], ALICE)).rules).toHaveLength(1);
    expect((await update([notify("by the lead")], LEAD)).createdBy).toBe("alice");
  });
});
