/**
 * Sessions with the real CLI: multi-turn in one process, history and output.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";

let sh: SessionHub;
beforeAll(async () => (sh = await startSessionHub(directiveModel())));
afterAll(async () => sh?.close());

describe("multi-turn", () => {
  it("spawns, answers two follow-ups in the same process, and records cost and turns per interaction", async () => {
    const spawned = await api(sh.hub, "POST", "/api/sessions", { name: "multi", prompt: "first question" });
    expect(spawned.status, JSON.stringify(spawned.body)).toBe(201);
    const first = await waitForSession(sh.hub, "multi", (s) => s.interactions === 1 && s.status === "idle");
    const pid = first.pid;
    expect(pid).toBeGreaterThan(0);
    const second = await api(sh.hub, "POST", "/api/sessions/multi/send", { message: "second question", wait: true });
    expect(second.body).toMatchObject({ completed: true, interaction: { n: 2, status: "completed", response: "pong: second question" } });
    const third = await api(sh.hub, "POST", "/api/sessions/multi/send", { message: "third question", wait: true });
    expect(third.body.interaction.response).toBe("pong: third question");
    const status = (await api(sh.hub, "GET", "/api/sessions/multi")).body;
    expect(status).toMatchObject({ pid, status: "idle", interactions: 3, turns: 3 });
    const history = (await api(sh.hub, "GET", "/api/sessions/multi/history")).body;
    expect(history.interactions.map((i: any) => [i.n, i.prompt, i.response, i.turns])).toEqual([
      [1, "first question", "pong: first question", 1],
      [2, "second question", "pong: second question", 1],
      [3, "third question", "pong: third question", 1],
    ]);
    for (const i of history.interactions) expect(i.costUsd).toBeGreaterThan(0);
    expect(history.costUsd).toBeCloseTo(
      history.interactions.reduce((a: number, i: any) => a + i.costUsd, 0),
      10,
    );
    expect((await api(sh.hub, "GET", "/api/sessions/multi/output")).body).toMatchObject({ output: "pong: third question", interaction: { n: 3 } });
  }, 120_000);
});
