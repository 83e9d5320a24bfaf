import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CreateContractInput } from "../../../lib/api/contracts.ts";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { OPERATOR } from "../principal.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { createContract, getContract } from "./contracts.service.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const create = (input: Record<string, unknown>) => createContract(hub, OPERATOR, CreateContractInput.parse(input));
const publish = (input: Record<string, unknown>) => publishArtifact(hub, OPERATOR, PublishArtifactInput.parse(input));
const status = async (id: string) => (await getContract(hub, { team: "default", id })).status;

describe("the Quick Start chain", () => {
  it("moves schema → api → tests as each output is published, as docs/cli.md#the-quick-start-chain shows", async () => {
    await create({ id: "setup-user-model", assignee: "db-dev", title: "Create User schema", expectedOutputs: [{ artifactType: "schema-change" }] });
    await create({
      id: "build-auth-api",
      assignee: "api-dev",
      title: "Build auth endpoints",
      dependencies: [{ type: "contract", contractId: "setup-user-model" }],
      expectedOutputs: [{ artifactType: "api-contract" }],
    });
    await create({
      id: "write-auth-tests",
      assignee: "qa-dev",
      title: "Write integration tests",
      dependencies: [{ type: "contract", contractId: "build-auth-api" }],
      expectedOutputs: [{ artifactType: "test-results" }],
    });
    expect([await status("setup-user-model"), await status("build-auth-api"), await status("write-auth-tests")]).toEqual(["ready", "pending", "pending"]);

    await publish({
      id: "schema-user-model",
      type: "schema-change",
      name: "User model schema",
      data: { models: [{ name: "User", fields: ["email", "phone", "password"] }] },
    });
    expect([await status("setup-user-model"), await status("build-auth-api"), await status("write-auth-tests")]).toEqual(["completed", "ready", "pending"]);

    await publish({
      id: "api-contract-user-auth",
      type: "api-contract",
      derivedFrom: ["schema-user-model@v1"],
      data: { endpoints: [{ method: "POST", path: "/login" }] },
    });
    expect([await status("build-auth-api"), await status("write-auth-tests")]).toEqual(["completed", "ready"]);

    const tests = await publish({
      id: "test-results-auth",
      type: "test-results",
      derivedFrom: ["api-contract-user-auth@v1"],
      data: { total: 12, passed: 12, failed: 0 },
    });
    expect(tests).toMatchObject({ version: 1, derivedFrom: ["api-contract-user-auth@v1"] });
    expect(await status("write-auth-tests")).toBe("completed");
    const done = await getContract(hub, { team: "default", id: "write-auth-tests" });
    expect(done.outputs).toEqual([{ artifactId: "test-results-auth", version: 1, seq: 3 }]);
    expect(done.pinnedInputs).toEqual([{ artifactId: "api-contract-user-auth", version: 1, seq: 2 }]);
  });
});
