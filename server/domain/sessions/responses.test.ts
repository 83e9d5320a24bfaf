/**
 * What the sessions operations return is what their endpoints describe (lib/api/sessions.ts):
 * every response, sent as JSON and parsed by its schema, comes back equal.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api } from "../../../lib/api/endpoints/index.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { crossesUnchanged as same } from "../../testing/wire.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { decideApproval, listApprovals } from "./approvals.ts";
import { cleanupSessions, deleteSession } from "./control.service.ts";
import { abortTask, finishTask } from "./delegate.service.ts";
import { lastOutput, listSessions, sessionHistory, sessionStatus, transcript } from "./queries.service.ts";
import { appendTranscript, requestApproval, violation } from "./runtime.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
});
afterEach(() => hub.close());

/** The supervisor's part in ending a process: a stop or kill request is followed by its exit. */
function exitOnRequest() {
  let chain = Promise.resolve();
  const unsubscribe = hub.bus.subscribe((events) => {
    for (const e of events) {
      if (e.type !== "session.stop_requested" && e.type !== "session.kill_requested") continue;
      const status = e.type === "session.stop_requested" ? "stopped" : "killed";
      chain = chain.then(() => k.exit(e.payload.name, status));
    }
  });
  return async () => {
    unsubscribe();
    await chain;
  };
}

describe("sessions responses", () => {
  it("spawn, batch, team_spawn, fork, send, lifecycle, delete and cleanup", async () => {
    const stop = k.supervise("one", (prompt) => ({
      response: `echo ${prompt}`,
      toolsUsed: ["Bash"],
      permissionDenials: [{ tool_name: "Write", tool_input: {} }],
    }));
    await same(api.sessions.spawn, k.spawn({ name: "one", model: "sonnet", safety: { maxCostUsd: 1 } }));
    await same(api.sessions.send, k.send({ name: "one", message: "hi", wait: true, waitTimeoutMs: 5000 }));
    await stop();
    await same(api.sessions.batch, k.batch([{ name: "b1", prompt: "x" }, { name: "b2" }]));
    await same(api.sessions.teamSpawn, k.teamSpawn({ name: "member-1", role: "tests" }));
    await same(api.sessions.fork, k.fork({ name: "one", newName: "one-fork" }));
    await same(api.sessions.pause, k.pause("one"));
    await same(api.sessions.resume, k.resume("one"));
    const exits = exitOnRequest();
    await same(api.sessions.stop, k.stop("b1", true));
    await same(api.sessions.kill, k.kill("b2", true));
    await exits();
    await same(api.sessions.list, listSessions(hub, OPERATOR, { limit: 100 }));
    await same(api.sessions.delete, deleteSession(hub, OPERATOR, { name: "one-fork" }));
    expect(await same(api.sessions.cleanup, cleanupSessions(hub, OPERATOR, { days: 0 }))).toEqual({ deleted: ["b1", "b2"] });
  });

  it("status with its running turn, approvals and violations; output, history, transcript; approvals and a decision", async () => {
    await k.spawn({ name: "s", prompt: "go" });
    await k.launched("s");
    const turn = (await k.startTurn("s"))!;
    const pk = await k.pk("s");
    await appendTranscript(hub, pk, { interactionId: turn.id, direction: "out", type: "assistant", subtype: null, payload: { text: "hello" } });
    const approval = (await requestApproval(hub, pk, { requestId: "r1", toolName: "Bash", input: { command: "ls" }, reason: "asks" }))!;
    await violation(hub, pk, "protected_path", "Write .env");
    const stranger: Principal = { name: "someone", kind: "member" };
    const shown = await same(api.sessions.status, sessionStatus(hub, OPERATOR, { name: "s" }));
    expect(shown).toMatchObject({ running: { id: turn.id }, approvals: [{ id: approval.id }], violations: [{ kind: "protected_path" }] });
    // A caller who owns nothing sees the state without the output or the tool input: the same view, with its flags.
    expect(await same(api.sessions.status, sessionStatus(hub, stranger, { name: "s" }))).toMatchObject({
      outputHidden: true,
      approvals: [{ inputHidden: true, input: {} }],
    });
    await same(api.sessions.approvals, listApprovals(hub, OPERATOR, { limit: 10 }));
    await same(api.sessions.decide, decideApproval(hub, OPERATOR, { name: "s", approvalId: approval.id, decision: "allow" }));
    await k.finish("s", { interactionId: turn.id, response: "done" });
    await same(api.sessions.output, lastOutput(hub, OPERATOR, { name: "s" }));
    await same(api.sessions.history, sessionHistory(hub, OPERATOR, { name: "s", limit: 10 }));
    expect((await same(api.sessions.transcript, transcript(hub, OPERATOR, { name: "s", limit: 10 }))).entries).toHaveLength(1);
  });

  it("delegate, continue, finish and abort", async () => {
    const stop = k.supervise("d", () => ({ response: "done", toolsUsed: ["Read"] }));
    const exits = exitOnRequest();
    await same(api.sessions.delegate, k.delegate({ name: "d", task: "do it" }));
    await same(api.sessions.continue, k.continue({ name: "d", message: "and more" }));
    expect(await same(api.sessions.finish, finishTask(hub, OPERATOR, { name: "d" }))).toMatchObject({ status: "stopped", interactions: 2 });
    await stop();
    await k.spawn({ name: "gone" });
    expect(await same(api.sessions.abort, abortTask(hub, OPERATOR, { name: "gone" }))).toMatchObject({ status: "killed" });
    await exits();
  });
});
