import { describe, expect, it } from "vitest";
import type { WireEvent } from "@/lib/ws.ts";
import { alertFor } from "./alerts.ts";

const event = (type: string, payload: Record<string, unknown>): WireEvent => ({ id: 7, teamId: "t", type, subject: "", payload, principal: "supervisor", causedBy: null, depth: 0, at: "2026-11-22T00:00:00.000Z" });

describe("alertFor", () => {
  it("alerts when a session waits for approval, fails or stalls, linking to the session", () => {
    expect(alertFor(event("session.approval_requested", { name: "api dev", toolName: "Bash", input: { command: "npm i" } }))).toEqual({ id: 7, title: "api dev needs approval", body: "Bash: npm i", href: "/sessions/api%20dev" });
    expect(alertFor(event("session.exited", { name: "w", status: "failed", reason: "crashed" }))).toMatchObject({ title: "w failed", body: "crashed" });
    expect(alertFor(event("session.stalled", { name: "w" }))).toMatchObject({ title: "w stalled" });
  });

  it("stays quiet otherwise", () => {
    expect(alertFor(event("session.exited", { name: "w", status: "stopped" }))).toBeNull();
    expect(alertFor(event("artifact.published", { artifactId: "x" }))).toBeNull();
  });
});
