/**
 * A session's runtime through every door that creates one (docs/runtimes.md#choosing-a-runtime): stored with the
 * session and its event, the runtime's default model filled in, and each rule it breaks refused naming the field, the
 * runtime and what it offers, with nothing written.
 */
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { api } from "../../../lib/api/endpoints/index.ts";
import { isEvent } from "../../../lib/api/events.ts";
import { operations, TEST_RUNTIMES } from "../../testing/operations.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { workTree } from "../../testing/work-tree.ts";
import { ForkInput, SpawnInput } from "../../../lib/api/sessions.ts";
import { OPERATOR } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { forkSession, spawnSession } from "../sessions/spawn.service.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
});
afterEach(() => hub.close());

const CODEX_MODELS = Object.keys(TEST_RUNTIMES.codex.models!);

describe("a session's runtime", () => {
  it("is claude unless asked, and codex runs the hub's default Codex model when the request names none", async () => {
    expect(await k.spawn({ name: "plain" })).toMatchObject({ runtime: "claude", model: null });
    expect(await k.spawn({ name: "cx", runtime: "codex" })).toMatchObject({ runtime: "codex", model: TEST_RUNTIMES.codex.defaultModel });
    expect(await k.spawn({ name: "cx-mini", runtime: "codex", model: "gpt-5.4-mini" })).toMatchObject({ runtime: "codex", model: "gpt-5.4-mini" });
    const created = hub.events.filter(isEvent("session.created")).map((e) => [e.payload.name, e.payload.runtime, e.payload.model]);
    expect(created).toEqual([
      ["plain", "claude", null],
      ["cx", "codex", "gpt-5.5"],
      ["cx-mini", "codex", "gpt-5.4-mini"],
    ]);
    expect((await k.status("cx")).runtime).toBe("codex");
  });

  it("refuses a runtime the hub does not have, listing those it has", async () => {
    const e = await refusedWithoutWriting(hub, () => k.spawn({ name: "g", runtime: "gemini" }));
    expect(e.code).toBe("invalid_input");
    expect(e.message).toBe("runtime: 'gemini' is not a runtime of this hub (claude, codex)");
    expect(issues(e)[0]).toMatchObject({ field: "runtime", rule: "known_runtime", received: "gemini" });
  });

  it("refuses a model the runtime does not offer, naming the runtime and its models", async () => {
    const e = await refusedWithoutWriting(hub, () => k.spawn({ name: "c", runtime: "codex", model: "sonnet" }));
    expect(e.message).toBe(`model: runtime 'codex' offers no model 'sonnet'; it offers ${CODEX_MODELS.join(", ")}`);
    expect(issues(e)[0]).toMatchObject({ field: "model", rule: "runtime_model" });
  });

  it("refuses an agent for a runtime that cannot run one, with the runtime's reason", async () => {
    const e = await refusedWithoutWriting(hub, () => k.spawn({ name: "c", runtime: "codex", agent: "reviewer" }));
    expect(e.message).toBe(`agent: runtime 'codex' cannot run an agent: ${TEST_RUNTIMES.codex.cannot.agent}`);
    expect(issues(e)[0]).toMatchObject({ field: "agent", rule: "runtime_can" });
    // Claude Code runs agents.
    expect(await k.spawn({ name: "a", agent: "reviewer" })).toMatchObject({ runtime: "claude", agent: "reviewer" });
  });

  it("is judged per entry in a batch, which then starts none and names the entry", async () => {
    const e = await refusedWithoutWriting(hub, () =>
      k.batch([
        { name: "one", runtime: "codex" },
        { name: "two", runtime: "gemini" },
      ]),
    );
    expect(e.message).toBe("sessions.1: runtime: 'gemini' is not a runtime of this hub (claude, codex)");
    expect(e.details).toMatchObject({ index: 1 });
    const both = await k.batch([{ name: "one", runtime: "codex" }, { name: "two" }]);
    expect(both.map((s) => s.runtime)).toEqual(["codex", "claude"]);
  });

  it("goes through team_spawn and delegate the same way", async () => {
    const member = await refusedWithoutWriting(hub, () => k.teamSpawn({ name: "m", runtime: "codex", agent: "reviewer" }));
    expect(issues(member)[0]).toMatchObject({ field: "agent", rule: "runtime_can" });
    const task = await refusedWithoutWriting(hub, () => k.delegate({ name: "d", task: "t", runtime: "codex", model: "opus" }));
    expect(issues(task)[0]).toMatchObject({ field: "model", rule: "runtime_model" });
    expect(await k.teamSpawn({ name: "m", runtime: "codex" })).toMatchObject({ runtime: "codex", kind: "member" });
  });

  it("refuses to fork a session whose runtime cannot fork, naming the runtime and the reason", async () => {
    await k.spawn({ name: "cx", runtime: "codex" });
    const e = await refusedWithoutWriting(hub, () => k.fork({ name: "cx", newName: "copy" }));
    expect(e.code).toBe("precondition_failed");
    expect(e.message).toBe(`name: session 'cx' runs codex, which cannot fork: ${TEST_RUNTIMES.codex.cannot.fork}`);
    expect(e.details).toMatchObject({ field: "name", rule: "runtime_can", runtime: "codex" });
  });

  it("refuses that fork before git makes a work tree or a branch for it", async () => {
    const repo = workTree();
    repo.write("app.txt", "app\n");
    repo.commit("start");
    const defaults = { workDir: repo.dir, sandbox: "bubblewrap" as const, maxLive: 0, runtimes: TEST_RUNTIMES, worktreesDir: path.join(hub.dir, "worktrees") };
    await spawnSession(hub, OPERATOR, parseOrThrow(SpawnInput, { name: "cx", runtime: "codex", isolation: "worktree" }), defaults);
    const git = () => [repo.git("for-each-ref", "--format=%(refname) %(objectname)"), repo.git("worktree", "list", "--porcelain"), repo.git("stash", "list")];
    const before = git();
    const e = await refusedWithoutWriting(hub, () => forkSession(hub, OPERATOR, parseOrThrow(ForkInput, { name: "cx", newName: "copy" }), defaults));
    expect(e.details).toMatchObject({ rule: "runtime_can" });
    expect(git()).toEqual(before);
  });
});

it("lists the hub's runtimes with their models, prices, default model and what they cannot do", async () => {
  const list = await operations(hub)(api.runtimes.list, OPERATOR);
  expect(list.map((r) => [r.name, r.protocol, r.defaultModel])).toEqual([
    ["claude", "claude-stream-json", null],
    ["codex", "acp", "gpt-5.5"],
  ]);
  expect(list[0]).toMatchObject({ models: null, cannot: {} });
  expect(list[1].models).toContainEqual({ name: "gpt-5.4-mini", inputUsdPerMTok: 0.75, cachedInputUsdPerMTok: 0.075, outputUsdPerMTok: 4.5 });
  expect(list[1].cannot).toEqual(TEST_RUNTIMES.codex.cannot);
  // What a client gets is what the wire carries.
  expect(api.runtimes.list.output.parse(JSON.parse(JSON.stringify(list)))).toEqual(list);
});
