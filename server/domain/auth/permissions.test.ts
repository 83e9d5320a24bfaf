import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR } from "../principal.ts";
import { LeadRefInput } from "../../../lib/api/leads.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { grantLead } from "./grants.service.ts";
import { createToken } from "./tokens.service.ts";
import { teamPermissions } from "./permissions.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const may = async (name: string, team = "default") =>
  Object.fromEntries((await teamPermissions(hub, { name, kind: "agent" }, { team })).permissions.map((p) => [p.operation, p.may]));

describe("a team's permissions", () => {
  it("lists the team-wide operations with whether the caller may and who may, as each operation decides", async () => {
    const op = await teamPermissions(hub, OPERATOR, { team: "default" });
    expect(op.permissions.every((p) => p.may)).toBe(true);
    expect(op.permissions.find((p) => p.operation === "budget.set")).toEqual({ operation: "budget.set", may: true, who: "the operator" });
    expect(op.permissions.find((p) => p.operation === "team.settings")).toEqual({
      operation: "team.settings",
      may: true,
      who: "a lead of team 'default' or the operator",
    });
    // Operations that depend on who owns the target are the target's own business.
    expect(op.permissions.some((p) => p.operation === "session.send")).toBe(false);

    expect(await may("dev")).toMatchObject({ "budget.set": false, "team.settings": false, "approval.decide": false, "session.spawn": true });
    await createToken(hub, OPERATOR, { name: "dev", kind: "member" });
    await grantLead(hub, OPERATOR, parseOrThrow(LeadRefInput, { team: "default", name: "dev" }));
    expect(await may("dev")).toMatchObject({ "budget.set": false, "team.settings": true, "approval.decide": true });
    expect(await may("dev", "other")).toMatchObject({ "team.settings": false });
  });
});
