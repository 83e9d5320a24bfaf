/**
 * Turns committed events into wake-up turns for supervised members: a contract assigned to
 * them became ready, or a message arrived. Replies are not wake-ups: the member that asked is
 * waiting for them inside its `team_ask` call, and a late reply stays in the inbox.
 */
import type { DomainDeps } from "../domain/deps.ts";
import { WAKE_PREFIX, wakeMember, type Wake } from "../domain/sessions/wake.ts";
import type { HubEvent } from "../events/types.ts";

export function wakeFor(e: HubEvent): Wake | null {
  if (!e.teamId) return null;
  const p = e.payload;
  if (e.type === "contract.status_changed" && p.to === "ready" && typeof p.assignee === "string") {
    const why = p.from === "pending" ? "" : ` (${String(p.from)} → ready${p.reason ? `: ${String(p.reason)}` : ""})`;
    return {
      team: e.teamId,
      member: p.assignee,
      reason: "contract",
      text: `${WAKE_PREFIX} Your contract '${String(p.id)}' is ready${why}. Start it with contract_start({id: "${String(p.id)}"}), do the work, and publish its outputs with artifact_publish (contractId "${String(p.id)}").`,
    };
  }
  if (e.type === "message.sent" && typeof p.to === "string" && p.from !== p.to) {
    if (p.kind === "turn") return { team: e.teamId, member: p.to, reason: "turn", text: String(p.text) };
    if (p.kind === "reply") return null;
    const how = p.kind === "ask" ? `asks you (reply with team_reply, messageId ${String(p.messageId)})` : `wrote (${String(p.kind)}, messageId ${String(p.messageId)})`;
    return { team: e.teamId, member: p.to, reason: "message", text: `${WAKE_PREFIX} New message: ${String(p.from)} ${how}:\n\n${String(p.text)}\n\nteam_check_inbox shows all your unread messages.` };
  }
  return null;
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
