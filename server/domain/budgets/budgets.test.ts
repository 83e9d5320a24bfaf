import { isEvent, type EventType } from "../../../lib/api/events.ts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContractRefInput, CreateContractInput } from "../../../lib/api/contracts.ts";
import { ListBudgetsInput, OwnBudgetsInput, SetBudgetInput } from "../../../lib/api/budgets.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { sql } from "../../db/sql.ts";
import type { InteractionRow, MessageRow } from "../../db/rows.ts";
import { createContract, getContract, startContract } from "../contracts/contracts.service.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { listBudgets, ownBudgets, setBudget } from "./budgets.service.ts";
import { teamBudgets, windowOf } from "./budgets.repo.ts";
import { needsAttention } from "../overview/attention.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
  for (const name of ["db-dev", "api-dev"]) {
    await k.teamSpawn({ team: "t", name });
    await k.launched(name);
  }
});
afterEach(() => hub.close());

const member = (name: string): Principal => ({ name, kind: "member" });
const set = async (input: Record<string, unknown>, by: Principal = OPERATOR) => setBudget(hub, by, parseOrThrow(SetBudgetInput, { team: "t", ...input }));
const list = () => listBudgets(hub, OPERATOR, parseOrThrow(ListBudgetsInput, { team: "t" }));
const contract = (id: string, assignee: string, by: Principal = OPERATOR) =>
  createContract(hub, by, parseOrThrow(CreateContractInput, { team: "t", id, title: id, assignee }));
const start = (id: string, by: string) => startContract(hub, member(by), parseOrThrow(ContractRefInput, { team: "t", id }));
const status = async (id: string) => (await getContract(hub, parseOrThrow(ContractRefInput, { team: "t", id }))).status;

/** One turn of `name` costing `cost`: queued, started, finished; null when it could not start. */
async function turn(name: string, cost: number, prompt = "work") {
  await k.send({ name, message: prompt });
  const t = await k.startTurn(name);
  if (!t) return null;
  await k.finish(name, { interactionId: t.id, costDelta: cost });
  return t;
}

const charged = async (id: number) =>
  await hub.db.read((s) =>
    s.get<Pick<InteractionRow, "teamId" | "member" | "contractId" | "costUsd">>(
      sql`SELECT "teamId","member","contractId","costUsd" FROM "Interaction" WHERE "id" = ${id}`,
    ),
  );
const inbox = async (who: string) =>
  await hub.db.read((s) =>
    s.all<Pick<MessageRow, "text" | "kind">>(
      sql`SELECT "text","kind" FROM "Message" WHERE "teamId" = 't' AND "recipient" = ${who} AND "kind" = 'system' ORDER BY "id"`,
    ),
  );
const of = <K extends EventType>(type: K) => hub.events.filter(isEvent(type));

describe("charging", () => {
  it("charges each turn to its team, its member and the contract in progress, and sums spent from the interactions", async () => {
    await contract("schema", "db-dev");
    await start("schema", "db-dev");
    const a = (await turn("db-dev", 0.5))!;
    const b = (await turn("api-dev", 0.25))!;
    expect(await charged(a.id)).toEqual({ teamId: "t", member: "db-dev", contractId: "schema", costUsd: 0.5 });
    expect(await charged(b.id)).toEqual({ teamId: "t", member: "api-dev", contractId: null, costUsd: 0.25 });
    await set({ scope: "team", amountUsd: 10 });
    await set({ scope: "member", target: "db-dev", amountUsd: 3, period: "month" });
    await set({ scope: "contract", target: "schema", amountUsd: 2 });
    const views = Object.fromEntries((await list()).map((v) => [`${v.scope}:${v.target}`, v]));
    expect(views["team:null"]).toMatchObject({ spentUsd: 0.75, leftUsd: 9.25, usedUp: false, window: "lifetime", forecastUsd: null });
    // Burn: the last 7 days' spending per day; a monthly budget's forecast adds it up to the end of the month.
    expect(views["team:null"]!.burnPerDayUsd).toBeCloseTo(0.75 / 7, 10);
    expect(views["member:db-dev"]!.burnPerDayUsd).toBeGreaterThanOrEqual(0.5 / 7);
    expect(views["member:db-dev"]!.forecastUsd).toBeGreaterThan(0.5);
    expect(views["member:db-dev"]).toMatchObject({ spentUsd: 0.5, period: "month", window: windowOf("month", new Date()).key });
    expect(views["contract:schema"]).toMatchObject({ spentUsd: 0.5, onExceed: "fail" });
  });

  it("charges a turn woken for a ready contract to the contract its prompt names, and not a failed one", async () => {
    await contract("api", "api-dev");
    await contract("api-v2", "api-dev");
    const t = (await turn("api-dev", 0.1, "[Team Hub] Contract notice: contract 'api-v2' (api-v2) is ready"))!;
    expect((await charged(t.id))?.contractId).toBe("api-v2");
  });

  it("counts a monthly budget from the first of the month (UTC)", () => {
    expect(windowOf("month", new Date("2026-03-31T23:59:59Z"))).toEqual({ key: "2026-03", start: new Date("2026-03-01T00:00:00Z") });
    expect(windowOf("lifetime", new Date())).toEqual({ key: "lifetime", start: null });
  });
});

describe("hard stops", () => {
  it("keeps a turn queued as `blocked: budget` while the team budget is used up, and starts it once raised", async () => {
    await set({ scope: "team", amountUsd: 1 });
    await turn("db-dev", 1.2);
    expect(await turn("api-dev", 0.1)).toBeNull();
    const blocked = await k.status("api-dev");
    expect(blocked.status).toBe("idle");
    expect(blocked.problem).toBe("blocked: budget — team 't': $1.20 spent of $1.00");
    expect(of("session.problem").at(-1)?.payload).toMatchObject({ name: "api-dev", kind: "budget" });
    expect(
      await hub.db.read((s) =>
        s.get(sql`SELECT COUNT(*) AS n FROM "Interaction" i JOIN "Session" s ON s."pk" = i."sessionPk" WHERE s."name" = 'api-dev' AND i."status" = 'queued'`),
      ),
    ).toEqual({ n: 1 });
    await set({ scope: "team", amountUsd: 5 });
    expect(of("budget.set").at(-1)?.payload).toMatchObject({ scope: "team", amountUsd: 5, previousUsd: 1 });
    const started = await k.startTurn("api-dev");
    expect(started?.status).toBe("running");
    expect((await k.status("api-dev")).problem).toBeNull();
  });

  it("blocks only the member whose own budget is used up", async () => {
    await set({ scope: "member", target: "db-dev", amountUsd: 0.5 });
    await turn("db-dev", 0.6);
    expect(await turn("db-dev", 0.1)).toBeNull();
    expect((await k.status("db-dev")).problem).toBe("blocked: budget — member 'db-dev': $0.60 spent of $0.50");
    expect(await turn("api-dev", 0.1)).not.toBeNull();
  });
});

describe("warnings and the contract stop", () => {
  it("warns once at the threshold and once when used up, to the operator and the member, without waking anyone", async () => {
    await set({ scope: "member", target: "db-dev", amountUsd: 1, warnAt: 0.5 });
    await turn("db-dev", 0.3);
    expect(of("budget.warning")).toHaveLength(0);
    await turn("db-dev", 0.3);
    await turn("db-dev", 0.1);
    expect(of("budget.warning").map((e) => e.payload)).toEqual([
      expect.objectContaining({ scope: "member", target: "db-dev", spentUsd: 0.6, session: "db-dev" }),
    ]);
    const attention = async () =>
      (await hub.db.read(async (s) => needsAttention(s, "t", true, await teamBudgets(s, "t", new Date())))).budgets.flatMap((g) =>
        g.items.map((b) => ({ target: b.target, usedUp: b.usedUp })),
      );
    expect(await attention()).toEqual([{ target: "db-dev", usedUp: false }]);
    await turn("db-dev", 0.5);
    expect(of("budget.exhausted")).toHaveLength(1);
    expect(await attention()).toEqual([{ target: "db-dev", usedUp: true }]);
    for (const who of ["operator", "db-dev"]) {
      expect((await inbox(who)).map((m) => m.text)).toEqual([
        "Budget warning: member 'db-dev' has $0.60 spent of $1.00 (60%); the warning is set at 50%.",
        "Budget used up: member 'db-dev' has $1.20 spent of $1.00 (120%); no turn charged to it starts until the operator raises it.",
      ]);
    }
    // The notices are `system` messages, which wake nobody: db-dev has no wake-up turn queued.
    expect(of("session.message_queued").filter((e) => String(e.payload.source).startsWith("wake"))).toHaveLength(0);
  });

  it("fails the contract that used up its budget with reason `budget`; the other member goes on", async () => {
    await contract("schema", "db-dev");
    await start("schema", "db-dev");
    await set({ scope: "contract", target: "schema", amountUsd: 2 });
    await turn("db-dev", 2.1);
    expect(await status("schema")).toBe("failed");
    expect(of("contract.status_changed").at(-1)?.payload).toMatchObject({ id: "schema", to: "failed", reason: "budget" });
    expect(await turn("api-dev", 0.5)).not.toBeNull();
  });

  it("with `pause`, keeps the contract and makes the turns charged to it wait until the budget is raised", async () => {
    await contract("schema", "db-dev");
    await start("schema", "db-dev");
    await set({ scope: "contract", target: "schema", amountUsd: 1, onExceed: "pause" });
    await turn("db-dev", 1.5);
    expect(await status("schema")).toBe("in_progress");
    expect(await turn("db-dev", 0.1)).toBeNull();
    expect((await k.status("db-dev")).problem).toBe("blocked: budget — contract 'schema': $1.50 spent of $1.00");
    await set({ scope: "contract", target: "schema", amountUsd: 3 });
    expect(await k.startTurn("db-dev")).not.toBeNull();
  });
});

describe("who may set what, and bad input", () => {
  it("refuses bad amounts, unknown scopes and misplaced targets, naming the field, writing nothing", async () => {
    const bad = async (input: Record<string, unknown>) => issues(await refusedWithoutWriting(hub, () => set(input)))[0];
    expect(await bad({ scope: "team", amountUsd: -1 })).toMatchObject({ field: "amountUsd", message: "must not be negative" });
    expect(await bad({ scope: "team", amountUsd: "ten" })).toMatchObject({ field: "amountUsd", message: "must be a number (US dollars)" });
    expect(await bad({ scope: "team", amountUsd: Number.NaN })).toMatchObject({ field: "amountUsd" });
    expect(await bad({ scope: "galaxy", amountUsd: 1 })).toMatchObject({ field: "scope", message: "must be one of team, member, contract" });
    expect(await bad({ scope: "member", amountUsd: 1 })).toMatchObject({ field: "target", message: "is required for a member budget (the member's name)" });
    expect(await bad({ scope: "team", target: "x", amountUsd: 1 })).toMatchObject({ field: "target" });
    expect(await bad({ scope: "member", target: "db-dev", amountUsd: 1, onExceed: "pause" })).toMatchObject({
      field: "onExceed",
      message: "applies to contract budgets only",
    });
    expect(await bad({ scope: "team", amountUsd: 1, warnAt: 1.5 })).toMatchObject({ field: "warnAt" });
    expect(await bad({ scope: "team", amountUsd: 1, period: "week" })).toMatchObject({ field: "period", message: "must be one of lifetime, month" });
  });

  it("refuses a member raising its own budget or the team's, and a budget on a contract it did not assign", async () => {
    await set({ scope: "member", target: "db-dev", amountUsd: 1 });
    const own = await refusedWithoutWriting(hub, () => set({ scope: "member", target: "db-dev", amountUsd: 100 }, member("db-dev")));
    expect(own.code).toBe("forbidden");
    expect(own.message).toBe("'db-dev' (member) may not set team or member budgets: only the operator may");
    expect((await refusedWithoutWriting(hub, () => set({ scope: "team", amountUsd: 100 }, member("db-dev")))).code).toBe("forbidden");
    await contract("tests", "api-dev", member("api-dev"));
    const theirs = await refusedWithoutWriting(hub, () => set({ scope: "contract", target: "tests", amountUsd: 0.5 }, member("db-dev")));
    expect(theirs.message).toMatch(/^'db-dev' \(member\) may not set the budget of contract 'tests' \(assigner 'api-dev'\): only its assigner/);
    expect((await refusedWithoutWriting(hub, () => set({ scope: "contract", target: "nope", amountUsd: 1 }))).code).toBe("not_found");
    expect((await refusedWithoutWriting(hub, () => listBudgets(hub, member("db-dev"), parseOrThrow(ListBudgetsInput, { team: "t" })))).code).toBe("forbidden");
  });

  it("lets a member budget a contract it assigned, within what its own budget has left", async () => {
    await set({ scope: "member", target: "db-dev", amountUsd: 1 });
    await turn("db-dev", 0.4);
    await contract("review", "api-dev", member("db-dev"));
    const over = await refusedWithoutWriting(hub, () => set({ scope: "contract", target: "review", amountUsd: 0.7 }, member("db-dev")));
    expect(issues(over)[0]).toMatchObject({
      field: "amountUsd",
      rule: "within_own_budget",
      message: "must fit within what member 'db-dev' has left ($0.60); $0.70 needs $0.70 more",
    });
    expect(await set({ scope: "contract", target: "review", amountUsd: 0.5 }, member("db-dev"))).toMatchObject({
      scope: "contract",
      target: "review",
      amountUsd: 0.5,
      setBy: "db-dev",
    });
    const mine = await ownBudgets(hub, member("api-dev"), parseOrThrow(OwnBudgetsInput, { team: "t" }));
    expect(mine.map((b) => `${b.scope}:${b.target}`)).toEqual(["contract:review"]);
  });
});
