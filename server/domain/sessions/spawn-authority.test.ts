/**
 * Spawning within the spawner's own authority (docs/security.md#capabilities), through every door that creates a session:
 * each refusal names the field and the rule and writes nothing; what is allowed records spawnedBy.
 */
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { LeadRefInput } from "../../../lib/api/leads.ts";
import { DelegateInput, SpawnInput } from "../../../lib/api/sessions.ts";
import { UpdateTeamSettingsInput } from "../../../lib/api/team-settings.ts";
import { createToken } from "../auth/tokens.service.ts";
import { grantLead } from "../auth/grants.service.ts";
import { updateTeamSettings } from "../teams/settings.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { delegate } from "./delegate.service.ts";
import { spawnSession } from "./spawn.service.ts";
import { TEST_RUNTIMES } from "../../testing/operations.ts";

let hub: TempHub;
let k: SessionKit;
const ALICE: Principal = { name: "alice", kind: "member" };
const PARENT: Principal = { name: "parent", kind: "member", sessionId: "parent" };

beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
  await createToken(hub, OPERATOR, { name: "alice", kind: "member" });
  await k.spawn({ name: "parent", preset: "edit", allowedTools: ["Bash(npm test:*)"], safety: { maxCostUsd: 1, maxTurns: 10, protectedPaths: ["secrets/"] } });
});
afterEach(() => hub.close());

const refused = async (call: () => Promise<unknown>) => (await refusedWithoutWriting(hub, call)).details;

describe("a member token", () => {
  it("spawns up to the team's maxPreset with the safety net on, inside the team's root, and is recorded as spawnedBy", async () => {
    const s = await k.spawn({ name: "mine", preset: "edit" }, ALICE);
    expect(s).toMatchObject({ spawnedBy: "alice", workDir: fs.realpathSync(k.workDir), preset: "edit" });
    expect(hub.events.at(-1)?.payload).toMatchObject({ spawnedBy: "alice" });
  });

  it("is refused full, safety off, allowedTools, limits above the team's and work dirs outside the root", async () => {
    expect(await refused(() => k.spawn({ name: "x", preset: "full" }, ALICE))).toMatchObject({
      field: "preset",
      rule: "max_preset",
      operation: "session.spawn",
      principal: "alice",
    });
    expect(await refused(() => k.spawn({ name: "x", safety: { enabled: false } }, ALICE))).toMatchObject({ field: "safety.enabled", rule: "safety_on" });
    expect(await refused(() => k.spawn({ name: "x", allowedTools: ["Bash"] }, ALICE))).toMatchObject({ field: "allowedTools", rule: "max_preset" });
    expect(await refused(() => k.spawn({ name: "x", safety: { maxCostUsd: 50 } }, ALICE))).toMatchObject({ field: "safety.maxCostUsd", rule: "team_limit" });
    expect(await refused(() => k.spawn({ name: "x", maxBudgetUsd: 50 }, ALICE))).toMatchObject({ field: "maxBudgetUsd", rule: "team_limit" });
    expect(await refused(() => k.spawn({ name: "x", maxTurns: 500 }, ALICE))).toMatchObject({ field: "safety.maxTurns", rule: "team_limit" });
    expect(await refused(() => k.spawn({ name: "x", safety: { timeoutMs: 3600_000 } }, ALICE))).toMatchObject({
      field: "safety.timeoutMs",
      rule: "team_limit",
    });
    expect(await refused(() => k.spawn({ name: "x", workDir: "/" }, ALICE))).toMatchObject({ field: "workDir", rule: "inside_root" });
    expect(await refused(() => k.spawn({ name: "x", workDir: `${k.workDir}/..` }, ALICE))).toMatchObject({ field: "workDir", rule: "inside_root" });
    fs.symlinkSync("/", path.join(k.workDir, "escape"));
    const viaLink = await refusedWithoutWriting(hub, () => k.spawn({ name: "x", workDir: path.join(k.workDir, "escape") }, ALICE));
    expect(viaLink.message).toContain("(really '/')");
  });

  it("may not name a session after a principal with a token, which would act as that principal", async () => {
    await createToken(hub, OPERATOR, { name: "bob", kind: "member" });
    expect(await refused(() => sessionKit(hub, ALICE).teamSpawn({ name: "bob" }))).toMatchObject({ field: "name", rule: "not_a_principal" });
    expect(await refused(() => k.spawn({ name: "bob" }, PARENT))).toMatchObject({ field: "name", rule: "not_a_principal" });
    expect(await k.teamSpawn({ name: "bob" })).toMatchObject({ name: "bob", spawnedBy: "operator" });
  });

  it("follows the team's settings: a wider maxPreset, a root of its own", async () => {
    const root = path.join(hub.dir, "root");
    fs.mkdirSync(path.join(root, "sub"), { recursive: true });
    await updateTeamSettings(hub, OPERATOR, parseOrThrow(UpdateTeamSettingsInput, { maxPreset: "full", rootDir: root }));
    expect(await k.spawn({ name: "wide", preset: "full", allowedTools: ["Bash"] }, ALICE)).toMatchObject({ preset: "full", workDir: root });
    expect(await k.spawn({ name: "sub", workDir: path.join(root, "sub") }, ALICE)).toMatchObject({ workDir: path.join(root, "sub") });
    expect(await refused(() => k.spawn({ name: "x", workDir: k.workDir }, ALICE))).toMatchObject({ field: "workDir", rule: "inside_root" });
  });

  it("with lead on the team is unrestricted there, and a member again on other teams", async () => {
    await grantLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "default", name: "alice" }));
    expect(await k.spawn({ name: "led", preset: "full", safety: { enabled: false }, workDir: "/" }, ALICE)).toMatchObject({ preset: "full", workDir: "/" });
    expect(await refused(() => k.spawn({ team: "other", name: "x", preset: "full" }, ALICE))).toMatchObject({ field: "preset", rule: "max_preset" });
  });
});

describe("a supervised session", () => {
  it("spawns within its own authority: its preset, its tools, its remaining budget, its limits and protected paths, its work dir", async () => {
    const kid = await k.spawn({ name: "kid", preset: "review", allowedTools: ["Bash(npm test:*)"] }, PARENT);
    expect(kid).toMatchObject({ spawnedBy: "parent", preset: "review", workDir: fs.realpathSync(k.workDir) });
    // Limits left at the hub's defaults are lowered to what the parent has.
    expect(kid.safety).toMatchObject({ enabled: true, maxCostUsd: 1, maxTurns: 10, protectedPaths: ["secrets/"] });
  });

  it("is refused anything wider than itself", async () => {
    expect(await refused(() => k.spawn({ name: "x", preset: "full" }, PARENT))).toMatchObject({ field: "preset", rule: "own_preset" });
    expect(await refused(() => k.spawn({ name: "x", safety: { enabled: false } }, PARENT))).toMatchObject({ field: "safety.enabled", rule: "safety_on" });
    expect(await refused(() => k.spawn({ name: "x", allowedTools: ["Bash(npm test:*)", "Bash"] }, PARENT))).toMatchObject({
      field: "allowedTools.1",
      rule: "own_tools",
    });
    expect(await refused(() => k.spawn({ name: "x", safety: { maxCostUsd: 1.5 } }, PARENT))).toMatchObject({
      field: "safety.maxCostUsd",
      rule: "within_own_limit",
    });
    expect(await refused(() => k.spawn({ name: "x", maxBudgetUsd: 5 }, PARENT))).toMatchObject({ field: "maxBudgetUsd", rule: "within_own_limit" });
    expect(await refused(() => k.spawn({ name: "x", maxTurns: 20 }, PARENT))).toMatchObject({ field: "safety.maxTurns", rule: "within_own_limit" });
    expect(await refused(() => k.spawn({ name: "x", workDir: "/" }, PARENT))).toMatchObject({ field: "workDir", rule: "inside_root" });
  });

  it("has no budget to give once it spent its own", async () => {
    const turn = (await k.send({ name: "parent", message: "go" })).interaction.id;
    await k.launched("parent");
    await k.startTurn("parent");
    await k.finish("parent", { interactionId: turn, costDelta: 1 });
    expect(await refused(() => k.spawn({ name: "x" }, PARENT))).toMatchObject({ field: "safety.maxCostUsd", rule: "own_budget" });
  });

  it("goes through batch, delegate, team_spawn and fork the same way", async () => {
    const defaults = { workDir: k.workDir, sandbox: "bubblewrap" as const, maxLive: 0, runtimes: TEST_RUNTIMES };
    expect(await refused(() => spawnSession(hub, PARENT, parseOrThrow(SpawnInput, { name: "x", workDir: "/" }), defaults))).toMatchObject({
      rule: "inside_root",
    });
    expect(await refused(() => delegate(hub, PARENT, parseOrThrow(DelegateInput, { name: "x", task: "t", safety: false }), defaults))).toMatchObject({
      field: "safety.enabled",
    });
    const asParent = sessionKit(hub, PARENT);
    expect((await refusedWithoutWriting(hub, () => asParent.batch([{ name: "a" }, { name: "b", preset: "full" }]))).details).toMatchObject({
      index: 1,
      field: "preset",
    });
    expect(await refused(() => asParent.teamSpawn({ name: "m", preset: "full" }))).toMatchObject({ field: "preset", rule: "own_preset" });
    // A fork copies the parent's settings and conversation: only the parent's owners may fork it.
    expect(await refused(() => sessionKit(hub, ALICE).fork({ name: "parent", newName: "copy" }))).toMatchObject({ rule: "owner", operation: "session.fork" });
  });
});

describe("a hub without the sandbox", () => {
  it("refuses full and safety off to everyone, the operator included", async () => {
    const bare = { workDir: k.workDir, sandbox: "none" as const, maxLive: 0, runtimes: TEST_RUNTIMES };
    const spawn = (input: Record<string, unknown>) => spawnSession(hub, OPERATOR, parseOrThrow(SpawnInput, input), bare);
    const full = await refusedWithoutWriting(hub, () => spawn({ name: "x", preset: "full" }));
    expect(full).toMatchObject({ code: "forbidden", details: { field: "preset", rule: "sandbox" } });
    expect(full.message).toBe("preset: 'full' is refused: sessions are not sandboxed on this hub (bubblewrap cannot run here)");
    expect(await refused(() => spawn({ name: "x", safety: { enabled: false } }))).toMatchObject({ field: "safety.enabled", rule: "sandbox" });
    expect(await spawn({ name: "fine", preset: "edit" })).toMatchObject({ spawnedBy: "operator" });
  });
});
