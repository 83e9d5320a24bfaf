/**
 * Ask (docs/domain.md#ask-and-reply): a question to one member that waits for the answer. It waits on the event bus for
 * the committed `message.sent` whose `replyTo` is the question, never by polling; replies made
 * by another process (`teamhub mcp` over stdio) reach this bus through the log feed. The
 * subscription is taken before the question commits, so no reply can slip in between.
 *
 * A timeout is an answer too ("nobody replied"), not an error: the question stays in the
 * recipient's inbox, and a late reply lands in the asker's inbox like any other message.
 */
import type { AskInput, AskResult, Sent } from "../../../lib/api/chat.ts";
import type { HubEvent } from "../../events/types.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { markRead } from "./read-marks.ts";
import { directInTx } from "./send.ts";
import { waitForEvent } from "../../events/wait.ts";
import { sendTransaction } from "./send-transaction.ts";

export async function ask({ db, bus }: DomainDeps, actor: Principal, input: AskInput, signal?: AbortSignal): Promise<AskResult> {
  let questionId = 0;
  const replyOf = (e: HubEvent) =>
    e.type === "message.sent" && e.teamId === input.team && questionId !== 0 && e.payload.replyTo === questionId && e.payload.messageId !== null
      ? { from: e.payload.from, text: e.payload.text, messageId: e.payload.messageId, at: e.at }
      : undefined;
  const started = Date.now();
  const wait = waitForEvent(bus, replyOf, input.timeoutSeconds * 1000, signal);
  let sent: Sent;
  try {
    sent = await sendTransaction(db, "chat.ask", actor, input.team, async (tx) => {
      const s = await directInTx(tx, actor, { team: input.team, to: input.to, kind: "ask", text: input.question });
      questionId = s.messageId;
      return s;
    });
  } catch (e) {
    wait.cancel();
    throw e;
  }
  const answer = await wait.promise;
  if (!answer) {
    return { answered: false, messageId: sent.messageId, to: sent.to, timedOut: !signal?.aborted, waitedSeconds: Math.round((Date.now() - started) / 1000) };
  }
  // The answer is handed over here, so it must not show up again as unread in the asker's inbox.
  await db.write("chat.ask_answered", actor.name, (tx) => markRead(tx, input.team, actor.name, [answer.messageId]));
  return { answered: true, messageId: sent.messageId, to: sent.to, reply: answer };
}
