/** Team knowledge (docs/knowledge.md): state updates, wisdom and the exploration cache. */
import { api } from "../../../lib/api/endpoints/index.ts";
import { MAX_FINDING_CHARS, MAX_FINDINGS, STATE_STATUSES, VERIFICATIONS, WISDOM_KINDS } from "../../../lib/api/knowledge.ts";
import { tool } from "../tool.ts";
import { LIMIT, REF, TEAM } from "./common.ts";

const ANGLE = "The research angle, e.g. 'auth token storage'; normalised to kebab-case ('auth-token-storage').";

export const knowledgeTools = [
  tool({
    name: "team_state_update",
    title: "Post a state update",
    description:
      "Tell the team where you stand after a piece of work, in your own name: your status, the task, the artifact version it produced (ref), " +
      `up to ${MAX_FINDINGS} key findings of at most ${MAX_FINDING_CHARS} characters, decisions with their rationale, the files you modified and how the work was verified. ` +
      "Every member reads the merged team state before starting, and pipelines can react to it.",
    endpoint: api.knowledge.stateUpdate,
    describe: {
      team: TEAM,
      status: `One of ${STATE_STATUSES.join(", ")}.`,
      task: "What you worked on (≤ 500 characters), e.g. the contract's title.",
      ref: `${REF} It must exist: publish first, then point at it.`,
      keyFindings: `At most ${MAX_FINDINGS} findings, each ≤ ${MAX_FINDING_CHARS} characters: what the next member must know.`,
      decisions: "[{decision, rationale}]: what you decided and why.",
      filesModified: "Paths of the files you changed.",
      verification: `One of ${VERIFICATIONS.join(", ")}: how you checked the work.`,
    },
  }),
  tool({
    name: "team_state",
    title: "Read the team state",
    description:
      "The merged state of the team: every member's newest state update (status, task, ref, key findings, decisions, files, verification) with the ones before it. " +
      "Read it before you start, then read the artifacts its refs point at.",
    endpoint: api.knowledge.teamState,
    describe: { team: TEAM, member: "Only this member.", history: "How many earlier updates per member to include, 0–100 (default 5)." },
  }),
  tool({
    name: "wisdom_append",
    title: "Append to the team's wisdom",
    description:
      "Add what the next member should know to the team's append-only journal: a learning, a decision (with rationale and rejected alternatives), " +
      "a convention (its title is its name; a newer one with the same name replaces it) or an issue. Entries are never edited or deleted.",
    endpoint: api.knowledge.appendWisdom,
    describe: {
      team: TEAM,
      kind: `One of ${WISDOM_KINDS.join(", ")}.`,
      title: "A short title (≤ 200 characters); a convention's name (lowercase letters, digits, '.', '_' or '-').",
      body: "The learning, decision, convention or issue itself.",
      rationale: "Decisions: why.",
      alternatives: "Decisions: options considered and rejected.",
      examples: "Conventions: short examples.",
      related: "{artifacts?: [id, …], contracts?: [id, …]}: what it concerns; each must exist in the team.",
    },
  }),
  tool({
    name: "wisdom_list",
    title: "Read the team's wisdom",
    description: "The team's learnings, decisions, conventions and issues, oldest first (read newest last); `after` continues from the last id you read.",
    endpoint: api.knowledge.listWisdom,
    describe: {
      team: TEAM,
      kind: `Only this kind: ${WISDOM_KINDS.join(", ")}.`,
      after: "Only entries after this id (nextAfter of the previous page).",
      limit: LIMIT,
    },
  }),
  tool({
    name: "exploration_lookup",
    title: "Look up an exploration",
    description:
      "Before researching something, check whether a teammate already did: a hit returns the cached result, its ref and who found it; " +
      "a miss means explore, then exploration_record what you found.",
    endpoint: api.knowledge.lookupExploration,
    describe: { team: TEAM, angle: ANGLE },
  }),
  tool({
    name: "exploration_record",
    title: "Record an exploration",
    description:
      "Store the result of researching an angle so nobody researches it again. The first record of an angle makes you its creator; only you may update it later.",
    endpoint: api.knowledge.recordExploration,
    describe: { team: TEAM, angle: ANGLE, result: "What you found (≤ 20,000 characters).", ref: `${REF} An artifact with the details (optional).` },
  }),
  tool({
    name: "exploration_list",
    title: "List explorations",
    description: "Every cached exploration of the team, by angle, with who created it.",
    endpoint: api.knowledge.listExplorations,
    describe: { team: TEAM, limit: LIMIT, cursor: "Continue after this angle (nextCursor of the previous page)." },
  }),
];
