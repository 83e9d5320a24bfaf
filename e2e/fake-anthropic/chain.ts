/**
 * The Quick Start chain (schema → API → tests, docs/cli.md#the-quick-start-chain) as scripted team members work it: each output, and a Claude
 * member that, woken by its contract's notice, starts the contract, publishes the contract's output and says so.
 */
import { mcp, memberOf } from "./members.ts";
import { prompt, toolResults, type MessagesRequest } from "./request.ts";
import type { Reply } from "./server.ts";

export const CHAIN_OUTPUTS: Record<string, { artifactId: string; type: string; data: unknown; derivedFrom: string[] }> = {
  "setup-schema": { artifactId: "schema-user", type: "schema-change", data: { models: [{ name: "User", fields: ["email"] }] }, derivedFrom: [] },
  "build-api": { artifactId: "api-user", type: "api-contract", data: { endpoints: [{ method: "POST", path: "/users" }] }, derivedFrom: ["schema-user@v1"] },
  "write-tests": { artifactId: "tests-user", type: "test-results", data: { total: 3, passed: 3, failed: 0 }, derivedFrom: ["api-user@v1"] },
};

/** The chain's contracts for three members, each depending on the one before. */
export function chainContracts(assignees: [string, string, string]) {
  const [schema, apiDev, qa] = assignees;
  return [
    { id: "setup-schema", assignee: schema, expectedOutputs: [{ artifactType: "schema-change" }] },
    {
      id: "build-api",
      assignee: apiDev,
      dependencies: [{ type: "contract", contractId: "setup-schema" }],
      expectedOutputs: [{ artifactType: "api-contract" }],
    },
    { id: "write-tests", assignee: qa, dependencies: [{ type: "contract", contractId: "build-api" }], expectedOutputs: [{ artifactType: "test-results" }] },
  ];
}

/** A Claude member working the chain in `team`; undefined for a request that is no member's, or no step of the chain. */
export function chainWorker(team: string): (req: MessagesRequest) => Reply | undefined {
  return (req) => {
    const member = memberOf(req);
    if (!member) return undefined;
    const results = toolResults(req);
    // The contract notice that woke it names the call to make (contract_start({id: "…"})).
    const woken = /contract_start\(\{id: \\"([^"\\]+)\\"\}\)/.exec(JSON.stringify(req.messages));
    if (results.length === 0) {
      const ready = /It is ready: start it with contract_start\(\{id: "([^"]+)"\}\)/.exec(prompt(req));
      return ready ? mcp("contract_start", { team, id: ready[1] }) : undefined;
    }
    const last = results[results.length - 1];
    if (last.name === "mcp__teamhub__contract_start" && woken) {
      const out = CHAIN_OUTPUTS[woken[1]];
      return mcp("artifact_publish", { team, id: out.artifactId, type: out.type, data: out.data, derivedFrom: out.derivedFrom, contractId: woken[1] });
    }
    return { text: `${member} finished: ${last.name.replace("mcp__teamhub__", "")}${last.isError ? ` failed: ${last.text}` : ""}` };
  };
}
