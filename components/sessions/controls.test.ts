import { describe, expect, it } from "vitest";
import type { SessionStatus } from "../../lib/api/sessions.ts";
import { controlsFor } from "./controls.ts";

const enabled = (status: SessionStatus, more: { claudeSessionId?: string | null; interactions?: number } = {}) =>
  Object.entries(
    controlsFor({ status, claudeSessionId: more.claudeSessionId === undefined ? "c1" : more.claudeSessionId, interactions: more.interactions ?? 1 }),
  )
    .filter(([, on]) => on)
    .map(([k]) => k);

describe("session controls by state", () => {
  it("offers what the state machine allows", () => {
    expect(enabled("idle")).toEqual(["pause", "stop", "kill", "fork", "delete"]);
    expect(enabled("waiting_permission")).toEqual(["pause", "stop", "kill", "fork", "delete"]);
    expect(enabled("paused")).toEqual(["resume", "stop", "kill", "fork", "delete"]);
    expect(enabled("queued", { interactions: 0 })).toEqual(["stop", "kill", "delete"]);
    expect(enabled("stopped")).toEqual(["resume", "fork", "delete"]);
    expect(enabled("failed", { claudeSessionId: null, interactions: 0 })).toEqual(["delete"]);
  });
});
