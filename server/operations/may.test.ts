/**
 * What a definition says of who may call it (`may`) is what its domain call enforces: every operation declared for the
 * operator alone or for a team's leads refuses a member of the team with the capability it declares, and writes
 * nothing. The operations are called as the doors call them (server/testing/operations.ts), on a real database and a
 * real git repository for the work tree a merge needs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../../lib/api/endpoints/index.ts";
import { CAPABILITIES } from "../domain/auth/capabilities.ts";
import { limitTurn } from "../domain/accounts/limits.ts";
import { OPERATOR, SUPERVISOR, type Principal } from "../domain/principal.ts";
import { markLaunched } from "../domain/sessions/runtime.ts";
import { refusedWithoutWriting } from "../testing/refusals.ts";
import { sessionKit } from "../testing/session-kit.ts";
import { operations, type Call } from "../testing/operations.ts";
import { tempHub, type TempHub } from "../testing/temp-hub.ts";
import { workTree } from "../testing/work-tree.ts";
import { ALL } from "./index.ts";

const MEMBER: Principal = { name: "mallory", kind: "member" };
const ACCOUNT = { account: "0123456789abcdef", label: "OAuth token 012345" };

/** An input each operator- or lead-only operation would carry out for the operator, on the fixtures made below. */
const INPUTS: Record<string, Record<string, unknown>> = {
  "snapshots.delete": { team: "t", id: "s1" },
  "snapshots.rollback": { team: "t", id: "s1" },
  "snapshots.rollbackPreview": { team: "t", id: "s1" },
  "snapshots.replay": { team: "t", id: "s1" },
  "snapshots.replayPreview": { team: "t", id: "s1" },
  "gate.reset": { team: "t", confirm: true },
  "sessions.cleanup": { team: "t", days: 0 },
  "sessions.decide": { name: "w", approvalId: 1, decision: "allow" },
  "sessions.decideMany": { team: "t", ids: [1], decision: "allow" },
  "worktrees.merge": { name: "w" },
  "chat.messages": { team: "t" },
  "budgets.list": { team: "t" },
  "limits.release": { account: ACCOUNT.account },
  "webhooks.list": { team: "t" },
  "webhooks.delete": { team: "t", id: "w1" },
  "webhooks.test": { team: "t", id: "w1" },
  "webhooks.deliveries": { team: "t", id: "w1" },
  "auth.createToken": { name: "eve" },
  "auth.revoke": { name: "dev" },
  "auth.list": {},
  "auth.operatorToken": {},
  "leads.grant": { team: "t", name: "mallory" },
  "leads.revoke": { team: "t", name: "dev" },
  "leads.list": { team: "t" },
  "hubs.list": {},
  "teams.archive": { team: "t" },
  "teams.demo": { team: "t" },
  "teams.updateSettings": { team: "t", wake: "off" },
};

const guarded = ALL.filter((d) => typeof d.may === "string" && d.may !== "member" && ["operator", "lead"].includes(CAPABILITIES[d.may].rule));

let hub: TempHub;
let call: Call;
beforeAll(async () => {
  hub = await tempHub();
  const repo = workTree();
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", "app\n");
  repo.commit("start");
  call = operations(hub, { sessionWorkDir: repo.dir, sandbox: "bubblewrap" });
  await call(api.auth.createToken, OPERATOR, { name: "dev" });
  await call(api.auth.createToken, OPERATOR, { name: "mallory" });
  await call(api.leads.grant, OPERATOR, { team: "t", name: "dev" });
  await call(api.sessions.teamSpawn, OPERATOR, { team: "t", name: "w", isolation: "worktree" });
  await call(api.snapshots.take, OPERATOR, { team: "t", id: "s1" });
  await call(api.webhooks.create, OPERATOR, { team: "t", id: "w1", url: "http://127.0.0.1:9/hook", events: ["contract.*"] });
  // A session of the team whose account ran into its usage limit: the account is held.
  const k = sessionKit(hub);
  await k.teamSpawn({ team: "t", name: "held" });
  await markLaunched(hub, await k.pk("held"), { pid: 4242, mode: "fresh", args: [], sandbox: "bubblewrap", dir: "/nonexistent", account: ACCOUNT.account });
  await k.send({ name: "held", message: "work" });
  const turn = (await k.startTurn("held"))!;
  await limitTurn(
    hub,
    await k.pk("held"),
    turn.id,
    ACCOUNT,
    { window: "five_hour", resetsAt: new Date(hub.clock.now().getTime() + 3_600_000) },
    SUPERVISOR.name,
  );
});
afterAll(() => hub.close());

describe("a definition's `may`", () => {
  it("names a capability of the table, and every capability of the table is some operation's", () => {
    const declared = new Set<string>(ALL.flatMap((d) => (typeof d.may === "string" ? [d.may] : Object.values(d.may))));
    expect(Object.keys(CAPABILITIES).filter((c) => !declared.has(c))).toEqual([]);
  });

  it("has an input here for every operation declared for the operator or a team's leads", () => {
    expect(guarded.map((d) => d.key).sort()).toEqual(Object.keys(INPUTS).sort());
  });

  it.each(guarded.map((d) => [d.key, d.may, d.endpoint] as const))("%s refuses a member of the team with %s, writing nothing", async (key, may, endpoint) => {
    const e = await refusedWithoutWriting(hub, () => call(endpoint, MEMBER, INPUTS[key]));
    expect([e.code, e.details.operation]).toEqual(["forbidden", may]);
  });
});
