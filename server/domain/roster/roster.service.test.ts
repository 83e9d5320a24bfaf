import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ContractRefInput, CreateContractInput } from "../../../lib/api/contracts.ts";
import { StateUpdateInput } from "../../../lib/api/knowledge.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { createContract, startContract } from "../contracts/contracts.service.ts";
import { postStateUpdate } from "../knowledge/state.service.ts";
import { OPERATOR } from "../principal.ts";
import { listRoster, upsertMember } from "./roster.service.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
});
afterEach(() => hub.close());

const member = async (name: string) => (await listRoster(hub, { team: "default" })).find((m) => m.name === name)!;

describe("the roster as read", () => {
  it("gives a supervised member its session's state, whatever it last reported", async () => {
    await k.teamSpawn({ name: "db-dev", role: "database" });
    expect((await member("db-dev")).status).toBe("busy"); // starting
    await k.launched("db-dev");
    expect((await member("db-dev")).status).toBe("idle");
    await k.send({ name: "db-dev", message: "go" });
    await k.startTurn("db-dev");
    expect((await member("db-dev")).status).toBe("busy");
    // Its last report said idle; its session is busy, and that is what the roster says.
    await upsertMember(hub, { name: "db-dev", kind: "member" }, { team: "default", name: "db-dev", status: "idle" });
    expect((await member("db-dev")).status).toBe("busy");
    // A member without a session keeps what it reported.
    await upsertMember(hub, OPERATOR, { team: "default", name: "ann", status: "waiting" });
    expect((await member("ann")).status).toBe("waiting");
  });

  it("says the current task: the reported one, else the newest state update still open, else the contract in progress", async () => {
    await upsertMember(hub, OPERATOR, { team: "default", name: "qa", role: "qa" });
    expect((await member("qa")).currentTask).toBeNull();
    await createContract(hub, OPERATOR, CreateContractInput.parse({ id: "write-tests", title: "Write the tests", assignee: "qa" }));
    await startContract(hub, { name: "qa", kind: "member" }, ContractRefInput.parse({ id: "write-tests" }));
    expect((await member("qa")).currentTask).toBe("write-tests: Write the tests");
    const qa = { name: "qa", kind: "member" } as const;
    await postStateUpdate(hub, qa, StateUpdateInput.parse({ status: "in_progress", task: "covering the login flow", verification: "self-validated" }));
    expect((await member("qa")).currentTask).toBe("covering the login flow");
    // A finished update says nothing about now: back to the contract.
    await postStateUpdate(hub, qa, StateUpdateInput.parse({ status: "completed", task: "covered the login flow", verification: "tested" }));
    expect((await member("qa")).currentTask).toBe("write-tests: Write the tests");
    await upsertMember(hub, qa, { team: "default", name: "qa", currentTask: "triaging a flaky test" });
    expect((await member("qa")).currentTask).toBe("triaging a flaky test");
  });
});
