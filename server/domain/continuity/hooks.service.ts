/**
 * Claude Code hooks (docs/domain.md#continuity) as one command each: every hook records a checkpoint of the caller's
 * working state; SessionStart first computes the briefing since the previous checkpoint, in the
 * same transaction, so no change can fall between what was briefed and where the next briefing
 * starts. Only Stop carries the model's last reply; the other hooks keep the summary their
 * session's previous checkpoint had, so a compaction does not lose "where you left off".
 */
import { MAX_SUMMARY_CHARS, type CheckpointKind, type CheckpointState, type HookEvent, type HookInput, type HookOutcome } from "../../../lib/api/continuity.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { briefingFrom } from "./briefing.service.ts";
import { findLatest, recordCheckpointInTx } from "./checkpoints.service.ts";

const KIND: Record<HookEvent, CheckpointKind> = { "session-start": "session_start", stop: "stop", "pre-compact": "pre_compact", "session-end": "session_end" };

function stateOf(input: HookInput, previousSummary: string | undefined): CheckpointState {
  const summary = input.hook.last_assistant_message?.trim() || previousSummary;
  return {
    ...(input.hook.cwd ? { cwd: input.hook.cwd } : {}),
    ...(input.git?.head ? { head: input.git.head } : {}),
    ...(summary ? { summary: summary.length > MAX_SUMMARY_CHARS ? `${summary.slice(0, MAX_SUMMARY_CHARS - 1)}…` : summary } : {}),
    ...(input.git?.changedFiles ? { changedFiles: input.git.changedFiles } : {}),
  };
}

export async function runHook({ db }: DomainDeps, actor: Principal, input: HookInput): Promise<HookOutcome> {
  return db.write(`hook.${input.event}`, actor.name, async (tx) => {
    const claudeSessionId = input.hook.session_id;
    const briefing = input.event === "session-start" ? await briefingFrom(tx, actor.name, { team: input.team, claudeSessionId, git: input.git }) : null;
    const previous = claudeSessionId ? await findLatest(tx, input.team, actor.name, claudeSessionId) : null;
    const previousSummary = previous?.claudeSessionId === claudeSessionId ? previous?.state.summary : undefined;
    const checkpoint = await recordCheckpointInTx(tx, actor, {
      team: input.team,
      kind: KIND[input.event],
      claudeSessionId,
      state: stateOf(input, previousSummary),
    });
    return { event: input.event, checkpoint, briefing };
  });
}
