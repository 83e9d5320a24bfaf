import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { refusedWithoutWriting } from "../../testing/refusals.ts";
import { sessionKit, type SessionKit } from "../../testing/session-kit.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR } from "../principal.ts";
import { retryTurn } from "./retry.ts";

let hub: TempHub;
let k: SessionKit;
beforeEach(async () => {
  hub = await tempHub();
  k = sessionKit(hub);
  await k.spawn({ name: "s" });
  await k.launched("s");
});
afterEach(() => hub.close());

const failure = { status: "error", isError: true, response: null, error: "API Error: 500 boom", costDelta: 0 } as const;
const turn = async (message: string, r: Parameters<SessionKit["finish"]>[1] extends infer T ? Partial<T> : never = {}) => {
  await k.send({ name: "s", message });
  const t = (await k.startTurn("s"))!;
  await k.finish("s", { interactionId: t.id, ...r });
};

describe("retrying a failed turn", () => {
  it("sends the failed turn's prompt again as a new turn, past an interrupted one since", async () => {
    await turn("build the thing", failure);
    await turn("stop that", { status: "interrupted", isError: true, subtype: "error_during_execution" });
    const r = await retryTurn(hub, OPERATOR, { name: "s" }, 10);
    expect(r.interaction).toMatchObject({ n: 3, prompt: "build the thing", status: "queued" });
    expect(hub.events.at(-1)).toMatchObject({ type: "session.message_queued", payload: { name: "s", n: 3, source: "operator (retry of turn 1)" } });
    // The retry runs and succeeds: the problem is gone.
    const t = (await k.startTurn("s"))!;
    await k.finish("s", { interactionId: t.id });
    expect((await k.status("s")).problem).toBeNull();
  });

  it("refuses, writing nothing, without a failed last turn, with one already waiting, and for a caller who may not send", async () => {
    expect((await refusedWithoutWriting(hub, () => retryTurn(hub, OPERATOR, { name: "s" }, 10))).message).toBe(
      "name: session 's' has no failed turn to retry: it has no turn yet",
    );
    await turn("fine");
    expect((await refusedWithoutWriting(hub, () => retryTurn(hub, OPERATOR, { name: "s" }, 10))).message).toBe(
      "name: session 's' has no failed turn to retry: its last turn (1) is completed",
    );
    await turn("broken", failure);
    await retryTurn(hub, OPERATOR, { name: "s" }, 10);
    expect((await refusedWithoutWriting(hub, () => retryTurn(hub, OPERATOR, { name: "s" }, 10))).message).toBe(
      "name: session 's' has no failed turn to retry: its last turn (3) is queued",
    );
    const stranger = { name: "stranger", kind: "agent" } as const;
    expect((await refusedWithoutWriting(hub, () => retryTurn(hub, stranger, { name: "s" }, 10))).code).toBe("forbidden");
  });
});
