/**
 * The HTTP API answers what its catalog says: against one running hub, every endpoint of `api` is called
 * through the client with valid input, and each raw answer must be exactly what the endpoint's output schema
 * gives back when the parsed value is encoded again — a field the schema does not describe (or describes
 * differently) fails. Sessions run the real `claude` against the fake API, only where an endpoint needs one.
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Endpoint, InputOf } from "../lib/api/endpoint.ts";
import { defOf } from "../lib/api/shape.ts";
import { TeamHub, api } from "teamhub";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api as rawApi } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree } from "./helpers/work-tree.ts";
import { startReceiver } from "../server/testing/webhook-receiver.ts";

const TEAM = "contract";
const names = new Map<Endpoint, string>(
  Object.entries(api).flatMap(([group, eps]) => Object.entries(eps).map(([n, e]): [Endpoint, string] => [e, `${group}.${n}`])),
);
/** Every answer, by endpoint: the raw text and what the client parsed from it. */
const answers = new Map<string, Array<{ raw: string; parsed: unknown }>>();
/** Endpoints that exist only to answer with a rule (wisdom is append-only): called, and refused with it. */
const refusedOnly = new Set<string>();

async function refused<E extends Endpoint>(endpoint: E, input: InputOf<E>, rule: string): Promise<void> {
  const hub = new TeamHub({ url: sh.hub.url, token: "", team: TEAM });
  await expect(hub.call(endpoint, input)).rejects.toMatchObject({ details: { rule } });
  refusedOnly.add(names.get(endpoint)!);
}

let sh: SessionHub;

/** One call through the client, its raw body kept; returns the body as JSON for the ids later calls need. */
async function call<E extends Endpoint>(endpoint: E, input: InputOf<E>, token?: string): Promise<any> {
  let raw = "";
  const keep = async (url: string, init: RequestInit) => {
    const res = await fetch(url, init);
    raw = await res.clone().text();
    return res;
  };
  const hub = new TeamHub({ url: sh.hub.url, token: token ?? "", team: TEAM, fetch: keep, waitingFetch: keep });
  const parsed = await hub.call(endpoint, input);
  const name = names.get(endpoint)!;
  answers.set(name, [...(answers.get(name) ?? []), { raw, parsed }]);
  return JSON.parse(raw);
}

const idle = (name: string) => waitForSession(sh.hub, name, (s) => s.status === "idle" && !s.running, 60_000);

beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  const s = api.sessions;

  await call(api.health.get, {});
  await call(api.runtimes.list, {});
  await call(api.teams.create, { id: TEAM });
  await call(api.teams.create, { id: "contract-old" });
  await call(api.teams.list, {});
  await call(api.teams.settings, {});
  await call(api.teams.updateSettings, { maxTurns: 40 });
  await call(api.teams.permissions, {});

  // Members, tokens, leads, budgets.
  await call(api.roster.upsert, { name: "dev", role: "backend" });
  await call(api.roster.upsert, { name: "qa", role: "tests" });
  await call(api.roster.list, {});
  await call(api.auth.operatorToken, {});
  const dev = (await call(api.auth.createToken, { name: "dev" })).token as string;
  await call(api.auth.list, {});
  await call(api.leads.grant, { name: "dev" });
  await call(api.leads.list, {});
  await call(api.leads.revoke, { name: "dev" });
  await call(api.budgets.set, { scope: "team", amountUsd: 100 });
  await call(api.budgets.set, { scope: "team", amountTokens: 5_000_000 });
  await call(api.budgets.list, {});
  await call(api.budgets.own, {}, dev);

  // Webhooks: a receiver on 127.0.0.1 answers the test notification.
  const receiver = await startReceiver();
  await call(api.webhooks.create, { id: "hook", url: receiver.url, events: ["contract.status_changed:failed"] });
  await call(api.webhooks.list, {});
  await call(api.webhooks.update, { id: "hook", enabled: false });
  await call(api.webhooks.test, { id: "hook" });
  await call(api.webhooks.deliveries, { id: "hook" });
  await call(api.webhooks.delete, { id: "hook" });
  await receiver.close();

  // Chat: the operator asks, dev reads its inbox and replies.
  await call(api.chat.send, { to: "dev", message: "hello dev" });
  await call(api.chat.broadcast, { message: "hello team" });
  const asking = call(api.chat.ask, { to: "dev", question: "ready?", timeoutSeconds: 60 });
  const question = await vi.waitFor(async () => {
    await call(api.chat.unread, {}, dev);
    const found = (await call(api.chat.inbox, { unreadOnly: true }, dev)).messages?.find((m: any) => m.kind === "ask");
    if (!found) throw new Error("the question has not reached dev's inbox");
    return found as { id: number };
  });
  await call(api.chat.reply, { messageId: question.id, message: "yes" }, dev);
  await asking;
  await call(api.chat.messages, {});

  // Artifacts and lineage.
  await call(api.artifacts.registerType, { name: "spec", jsonSchema: { type: "object" } });
  await call(api.artifacts.types, {});
  await call(api.artifacts.publish, { id: "api-spec", type: "spec", data: { version: 1 }, summary: "first" });
  await call(api.artifacts.publish, { id: "impl", type: "spec", data: { uses: "api-spec" }, derivedFrom: ["api-spec@v1"] });
  await call(api.artifacts.publish, { id: "api-spec", type: "spec", data: { version: 2 } });
  await call(api.artifacts.get, { id: "api-spec" });
  await call(api.artifacts.get, { id: "api-spec", version: 1 });
  await call(api.artifacts.list, {});
  await call(api.artifacts.history, { id: "api-spec", includeData: true });
  await call(api.artifacts.readers, { id: "api-spec" });
  await call(api.lineage.graph, { ref: "impl" });
  await call(api.lineage.impact, { id: "api-spec" });
  await call(api.lineage.stale, {});
  await call(api.lineage.audit, { ref: "impl@v1" });

  // Contracts through their states.
  await call(api.contracts.create, { id: "design", title: "Design", assignee: "dev" });
  await call(api.contracts.create, { id: "build", title: "Build", assignee: "dev", dependencies: [{ type: "contract", contractId: "design" }] });
  await call(api.contracts.get, { id: "design" });
  await call(api.contracts.list, {});
  await call(api.contracts.addDependency, { id: "build", dependency: { type: "artifact", artifactId: "api-spec" } });
  await call(api.contracts.removeDependency, { id: "build", dependency: { type: "artifact", artifactId: "api-spec" } });
  await call(api.contracts.start, { id: "design" });
  await call(api.contracts.complete, { id: "design", summary: "done" });
  await call(api.contracts.reassign, { id: "build", assignee: "qa" });
  await call(api.contracts.start, { id: "build" });
  await call(api.contracts.fail, { id: "build", reason: "tests fail" });
  await call(api.contracts.reopen, { id: "build", reason: "try again" });
  await call(api.graph.get, {});
  await call(api.overview.get, {});
  await call(api.gate.check, { phase_completing: "design", phase_starting: "build", expected_artifacts: ["api-spec"] });

  // Continuity.
  await call(api.continuity.recordDecision, { title: "REST", decision: "Use REST", rationale: "simple" });
  await call(api.continuity.listDecisions, {});
  await call(api.continuity.registerPattern, { name: "errors", description: "Errors carry a code" });
  await call(api.continuity.getPattern, { name: "errors" });
  await call(api.continuity.listPatterns, {});
  await call(api.continuity.recordCheckpoint, { kind: "stop", claudeSessionId: "cc-1" });
  await call(api.continuity.latestCheckpoint, { claudeSessionId: "cc-1" });
  await call(api.continuity.briefing, { claudeSessionId: "cc-1" });
  await call(api.continuity.briefingPost, { claudeSessionId: "cc-1", git: { changedFiles: ["a.ts"] } });
  await call(api.continuity.hook, { event: "stop", hook: { session_id: "cc-1" } });

  // Pipelines.
  const rule = { trigger: { type: "artifact_published" as const, artifactType: "spec" }, action: { type: "broadcast" as const, message: "spec changed" } };
  await call(api.pipelines.validate, { rules: [rule] });
  await call(api.pipelines.create, { id: "notify", rules: [rule] });
  await call(api.pipelines.list, {});
  await call(api.pipelines.pause, { id: "notify" });
  await call(api.pipelines.resume, { id: "notify" });
  const published = {
    artifactId: "s",
    version: 1,
    seq: 1,
    type: "spec",
    name: "s",
    publisher: "operator",
    contractId: null,
    derivedFrom: [],
    summary: "",
    size: 2,
  };
  await call(api.pipelines.dryRun, { rule, event: { type: "artifact.published", payload: published, data: { x: 1 } } });
  await call(api.pipelines.matchingEvents, { trigger: { type: "artifact_published" }, limit: 5 });
  await call(api.pipelines.get, { id: "notify" });
  await call(api.pipelines.update, { id: "notify", rules: [rule, { ...rule, action: { type: "broadcast" as const, message: "spec changed again" } }] });
  await call(api.events.list, {});

  // Team knowledge (docs/knowledge.md), the hubs, the Quick Start demo on a team of its own.
  await call(api.knowledge.stateUpdate, { status: "completed", task: "wrote the spec", keyFindings: ["the spec is short"], verification: "self-validated" });
  await call(api.knowledge.teamState, {});
  const wisdom = await call(api.knowledge.appendWisdom, { kind: "learning", title: "specs", body: "keep them short" });
  await call(api.knowledge.listWisdom, {});
  await refused(api.knowledge.editWisdom, { id: wisdom.id, body: "longer" }, "append_only");
  await refused(api.knowledge.deleteWisdom, { id: wisdom.id }, "append_only");
  await call(api.knowledge.recordExploration, { angle: "auth-options", result: "JWT or sessions" });
  await call(api.knowledge.lookupExploration, { angle: "auth-options" });
  await call(api.knowledge.listExplorations, {});
  await call(api.hubs.list, {});
  await call(api.teams.demo, { team: "contract-demo" });

  // Sessions: one that answers, is asked again, paused, resumed, forked; one that waits for an approval.
  await call(s.spawn, { name: "s1", prompt: "first" });
  await idle("s1");
  await call(s.send, { name: "s1", message: "second", wait: true });
  await call(s.status, { name: "s1" });
  await call(s.output, { name: "s1" });
  await call(s.history, { name: "s1" });
  await call(s.transcript, { name: "s1" });
  await call(s.list, {});
  await call(s.pause, { name: "s1" });
  await call(s.resume, { name: "s1" });
  // A turn the API failed, sent again (on s1: one more live session would take another's place under admission).
  await call(s.send, { name: "s1", message: "@error 500", wait: true });
  await call(s.retry, { name: "s1" });
  await waitForSession(sh.hub, "s1", (x) => x.problem?.startsWith("last turn failed") && x.status === "idle" && x.interactions === 4, 60_000);
  await call(s.fork, { name: "s1", newName: "s1-fork" });
  await idle("s1-fork");
  await call(s.stop, { name: "s1-fork" });
  await call(s.delete, { name: "s1-fork" });
  await call(s.spawn, { name: "asker" });
  await idle("asker");
  await call(s.send, { name: "asker", message: `@bash touch ${sh.work}/approved.txt\n@reply touched` });
  const waiting = await waitForSession(sh.hub, "asker", (x) => x.status === "waiting_permission");
  await call(s.approvals, {});
  await call(s.approvalCount, { status: "pending" });
  await call(s.decide, { name: "asker", approvalId: waiting.approvals[0].id, decision: "allow" });
  await idle("asker");
  await call(s.send, { name: "asker", message: `@bash touch ${sh.work}/again.txt\n@reply touched` });
  const again = await waitForSession(sh.hub, "asker", (x) => x.status === "waiting_permission");
  await call(s.decideMany, { ids: [again.approvals[0].id, waiting.approvals[0].id], decision: "deny", note: "bulk" });
  await idle("asker");
  await call(s.kill, { name: "asker" });
  // Delegate with limits, continue, finish; abort a live one; batch and team spawn.
  await call(s.delegate, { name: "d1", task: "do the task", maxCost: 1, maxTurns: 5, timeout: 60_000 });
  await call(s.continue, { name: "d1", message: "and more" });
  await call(s.finish, { name: "d1" });
  await call(s.batch, { sessions: [{ name: "b1" }, { name: "b2" }] });
  await call(s.teamSpawn, { name: "member1", role: "dev" });
  await call(s.abort, { name: "b1" });
  for (const name of ["b2", "member1", "s1"]) await call(s.stop, { name });
  await call(s.cleanup, { days: 0, team: TEAM });

  // Work trees (docs/worktrees.md): a session in a repository of its own, its changes, a merge, a discard.
  const repoDir = path.join(sh.work, "repo");
  fs.mkdirSync(repoDir);
  const repo = workTree(repoDir);
  repo.write("a.txt", "a\n");
  repo.commit("start");
  const w1 = await call(s.spawn, { name: "w1", isolation: "worktree", workDir: repoDir });
  await idle("w1");
  fs.writeFileSync(path.join(w1.workDir, "a.txt"), "a by w1\n");
  await call(api.worktrees.changes, { name: "w1" });
  await call(api.worktrees.overlaps, {});
  await call(api.worktrees.compare, { a: w1.worktree.branch, b: w1.worktree.branch });
  await call(api.worktrees.merge, { name: "w1", dryRun: true });
  await call(api.worktrees.merge, { name: "w1", mode: "squash" });
  // Runnable work trees (docs/worktrees.md#runnable-work-trees): this repository configures none.
  await call(api.worktrees.runnable, { name: "w1" });
  await call(api.worktrees.commandOutput, { name: "w1", kind: "setup" });
  await refused(api.worktrees.run, { name: "w1" }, "has_run");
  await call(s.stop, { name: "w1" });
  await refused(api.worktrees.setup, { name: "w1" }, "has_setup");
  // Deleted, its branch is left for a merge or a discard by the session's name.
  await call(s.delete, { name: "w1" });
  expect((await call(api.worktrees.leftBranches, {})).branches).toMatchObject([{ branch: w1.worktree.branch, session: "w1", sessionExists: false }]);
  await call(api.worktrees.discard, { name: "w1", confirm: true });

  // Usage limits (docs/limits.md): no account is held here.
  await call(api.limits.list, {});
  await refused(api.limits.release, { account: "0123456789abcdef" }, "exists");

  // Snapshots, last: a rollback and a replay rewind the team.
  const snap = (await call(api.snapshots.take, { label: "before" })).id as string;
  await call(api.snapshots.list, {});
  await call(api.snapshots.get, { id: snap });
  await call(api.snapshots.diff, { a: snap });
  await call(api.snapshots.rollbackPreview, { id: snap });
  await call(api.snapshots.rollback, { id: snap });
  await call(api.snapshots.replayPreview, { id: snap });
  await call(api.snapshots.replay, { id: snap });
  await call(api.snapshots.delete, { id: snap });
  await call(api.pipelines.delete, { id: "notify" });

  // Team-wide endings on a team of their own.
  await call(api.gate.reset, { team: "contract-old", confirm: true });
  await call(api.teams.archive, { team: "contract-old" });
  await call(api.auth.revoke, { name: "dev" });
}, 600_000);

afterAll(async () => sh?.close());

describe("the HTTP API against its catalog", () => {
  const all = [...names.entries()];

  it("every endpoint was called", () => {
    expect(all.map(([, name]) => name).filter((name) => !answers.has(name) && !refusedOnly.has(name))).toEqual([]);
  });

  it.each(all.map(([endpoint, name]) => [name, endpoint] as const))("%s answers exactly what its schema describes", (name, endpoint) => {
    for (const { raw, parsed } of answers.get(name) ?? []) expect(z.encode(endpoint.output, parsed), raw).toEqual(JSON.parse(raw));
  });

  it("keeps an idle connection open longer than a client does, so a reused socket is never closed under a request", async () => {
    const res = await rawApi(sh.hub, "GET", "/api/health");
    // Node's agent drops an idle socket after 5 s; the hub must hold it well past that.
    const seconds = Number(/timeout=(\d+)/.exec(String(res.headers["keep-alive"]))?.[1]);
    expect(seconds).toBeGreaterThan(30);
  });

  it("every endpoint's output is described: none accepts any value", () => {
    expect(all.filter(([endpoint]) => ["unknown", "any"].includes(defOf(endpoint.output).type)).map(([, name]) => name)).toEqual([]);
  });
});
