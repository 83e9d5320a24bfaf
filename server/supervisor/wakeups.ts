/**
 * Turns committed messages into wake-up turns for supervised members: a contract notice that
 * gives them something to do (a contract of theirs became ready, or one they were working on was
 * taken away or reset), or any other message addressed to them; a broadcast wakes only members
 * with a contract ready or in progress, and budget notices wake nobody (docs/budgets.md). Replies are not wake-ups: the member that asked is
 * waiting for them inside its `team_ask` call, and a late reply stays in the inbox.
 */
import type { DomainDeps } from "../domain/deps.ts";
import { WAKE_PREFIX, wakeMember, type Wake } from "../domain/sessions/wake.ts";
import type { HubEvent } from "../events/types.ts";

export function wakeFor(e: HubEvent): Wake | null {
  if (!e.teamId || e.type !== "message.sent") return null;
  const { to, ...p } = e.payload;
  if (to === null) return null;
  // Contract notices (domain/contracts/notices.ts): one per member per transaction, a turn only when there is something to do.
  if (p.kind === "contract") {
    if (p.actionable !== true) return null;
    return {
      team: e.teamId,
      member: to,
      reason: "contract",
      text: `${WAKE_PREFIX} Contract notice from ${p.from} (messageId ${p.messageId}):\n\n${p.text}`,
    };
  }
  if (p.from === to) return null;
  // Budget notices (domain/budgets/charge.ts): a turn to read one would spend what it warns about.
  if (p.kind === "system") return null;
  if (p.kind === "turn") return { team: e.teamId, member: to, reason: "turn", text: p.text };
  if (p.kind === "reply") return null;
  const how = p.kind === "ask" ? `asks you (reply with team_reply, messageId ${p.messageId})` : `wrote (${p.kind}, messageId ${p.messageId})`;
  return {
    team: e.teamId,
    member: to,
    reason: "message",
    ...(p.kind === "broadcast" ? { onlyWithWork: true } : {}),
    text: `${WAKE_PREFIX} New message: ${p.from} ${how}:\n\n${p.text}\n\nteam_check_inbox shows all your unread messages.`,
  };
}

/** `maxLive`: the admission limit, for members that yielded their place and are woken back. */
export function startWakeups(deps: DomainDeps, maxLive: number): () => void {
  let chain: Promise<void> = Promise.resolve();
  return deps.bus.subscribe((events) => {
    const wakes = events.map(wakeFor).filter((w): w is Wake => w !== null);
    if (wakes.length === 0) return;
    chain = chain
      .then(async () => {
        for (const w of wakes) await wakeMember(deps, w, maxLive);
      })
      .catch((e) => console.error("[teamhub] wake-up failed:", e));
  });
}
