/**
 * The briefing (docs/domain.md#continuity): what changed for the calling principal (or, asked by an operator, a
 * member) since its last checkpoint, or a first-time overview without one, structured and as
 * markdown for Claude Code's `additionalContext`. A briefing is a read: it marks nothing read and
 * records nothing (the SessionStart hook records its checkpoint in the same transaction, see
 * hooks.service.ts).
 */
import type { Sql } from "../../db/connection.ts";
import type { Briefing, BriefingInput, GitFacts } from "../../../lib/api/continuity.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { findLatest, subjectOf } from "./checkpoints.service.ts";
import { BRIEF_ITEMS, contractsFor, decisionsSince, newerThanRead, patternsSince, unreadMessages } from "./briefing-queries.ts";
import { firstWisdomAfter } from "../knowledge/wisdom.service.ts";
import { knowledgeSince } from "../knowledge/context.ts";
import { renderBriefing } from "./briefing-markdown.ts";

export async function briefingFrom(sql: Sql, principal: string, input: Omit<BriefingInput, "member">): Promise<Briefing> {
  const since = await findLatest(sql, input.team, principal, input.claudeSessionId);
  const after = since?.lastEventId ?? null;
  const first = await firstWisdomAfter(sql, input.team, after);
  const facts = {
    team: input.team,
    principal,
    since,
    contracts: await contractsFor(sql, input.team, principal, after),
    artifacts: await newerThanRead(sql, input.team, principal),
    messages: await unreadMessages(sql, input.team, principal),
    decisions: await decisionsSince(sql, input.team, first),
    patterns: await patternsSince(sql, input.team, first),
    ...(await knowledgeSince(sql, input.team, principal, first, ["learning", "issue"], BRIEF_ITEMS)),
    git: gitOf(input.git),
  };
  return { ...facts, markdown: renderBriefing(facts) };
}

const gitOf = (g: GitFacts | undefined): Briefing["git"] => (g ? { head: g.head ?? null, since: g.since ?? null, changedFiles: g.changedFiles ?? [] } : null);

export async function briefing({ db }: DomainDeps, actor: Principal, input: BriefingInput): Promise<Briefing> {
  return db.read(async (sql) => briefingFrom(sql, await subjectOf(sql, actor, input.team, input.member), input));
}
