/**
 * A realistic sample event per trigger, shaped like the event log writes it (the payloads of
 * artifact.published, contract.status_changed, artifact.stale and message.sent), for trying a rule
 * in a dry run. The trigger's own filters fill the sample, so it passes them.
 */
import type { EventType } from "./api/events.ts";
import type { Trigger } from "./api/pipelines.ts";

export type SampleEventJson = { type: EventType; subject: string; principal: string; payload: Record<string, unknown>; data?: unknown };

/** Version data that reads like the well-known types, so conditions such as `data.failed > 0` have something to test. */
function dataFor(type: string): unknown {
  if (type === "test-results") return { total: 12, passed: 9, failed: 3 };
  if (type === "api-contract")
    return {
      endpoints: [
        { method: "POST", path: "/login" },
        { method: "POST", path: "/logout" },
      ],
    };
  if (type === "schema-change") return { models: [{ name: "User", fields: ["email", "password"] }] };
  return { note: "sample data" };
}

export function sampleEvent(trigger: Trigger): SampleEventJson {
  switch (trigger.type) {
    case "artifact_published":
    case "artifact_version_bumped": {
      const type = trigger.artifactType ?? "test-results";
      const artifactId = trigger.artifactId ?? `${type}-auth`;
      const publisher = trigger.publisher ?? "qa-dev";
      return {
        type: "artifact.published",
        subject: `artifact:${artifactId}@v2`,
        principal: publisher,
        payload: { artifactId, version: 2, seq: 41, type, name: artifactId, publisher, contractId: null, derivedFrom: [], summary: "", size: 512 },
        data: dataFor(type),
      };
    }
    case "artifact_stale": {
      const type = trigger.artifactType ?? "api-contract";
      const artifactId = trigger.artifactId ?? `${type}-auth`;
      return {
        type: "artifact.stale",
        subject: `artifact:${artifactId}@v1`,
        principal: trigger.publisher ?? "db-dev",
        // `type` and `publisher` are what the hub reads from the version when the event is real.
        payload: {
          artifactId,
          version: 1,
          type,
          publisher: trigger.publisher ?? "api-dev",
          reason: "built on schema-user-model@v1; v2 is current",
          cause: { kind: "superseded", source: "schema-user-model", previous: 1, current: 2 },
        },
        data: dataFor(type),
      };
    }
    case "contract_completed":
    case "contract_failed":
    case "contract_reopened": {
      const id = trigger.contractId ?? "build-auth-api";
      const moves = {
        contract_completed: { from: "in_progress", to: "completed", reason: "acceptance criteria met" },
        contract_failed: { from: "in_progress", to: "failed", reason: "timed out" },
        contract_reopened: { from: "completed", to: "ready", reason: "Failed tests: 3", operation: "reopen" },
      }[trigger.type];
      return {
        type: "contract.status_changed",
        subject: `contract:${id}`,
        principal: trigger.publisher ?? "api-dev",
        payload: {
          id,
          title: "Build auth endpoints",
          assignee: "api-dev",
          assigner: "operator",
          retryCount: trigger.type === "contract_reopened" ? 1 : 0,
          ...moves,
        },
      };
    }
    case "state_updated": {
      const member = trigger.publisher ?? "api-dev";
      return {
        type: "state.updated",
        subject: `member:${member}`,
        principal: member,
        payload: {
          id: 1,
          member,
          role: trigger.role ?? "backend",
          status: trigger.status ?? "completed",
          task: "Build auth endpoints",
          ref: "api-contract-user-auth@v2",
        },
      };
    }
    case "message_received": {
      const from = trigger.publisher ?? "api-dev";
      return {
        type: "message.sent",
        subject: "message:7",
        principal: from,
        payload: { messageId: 7, from, to: trigger.to ?? "qa-dev", kind: "dm", text: "api-contract-user-auth@v2 is out", replyTo: null },
      };
    }
  }
}
