/** Team knowledge (docs/knowledge.md): state updates, wisdom and the exploration cache. */
import { MAX_FINDING_CHARS, MAX_FINDINGS, STATE_STATUSES, VERIFICATIONS, WISDOM_KINDS } from "../../lib/api/knowledge.ts";
import { postStateUpdate, teamState } from "../domain/knowledge/state.service.ts";
import { appendWisdom, listWisdom, refuseWisdomChange } from "../domain/knowledge/wisdom.service.ts";
import { listExplorations, lookupExploration, recordExploration } from "../domain/knowledge/exploration.service.ts";
import { area } from "./define.ts";
import { LIMIT, REF, TEAM } from "./fields.ts";

const ANGLE = "The research angle, e.g. 'auth token storage'; normalised to kebab-case ('auth-token-storage').";

export const knowledge = area("knowledge", {
  stateUpdate: {
    may: "member",
    serve: ({ deps }, a, i) => postStateUpdate(deps, a, i),
    mcp: {
      name: "team_state_update",
      title: "Post a state update",
      description:
        "Tell the team where you stand after a piece of work, in your own name: your status, the task, the artifact version it produced (ref), " +
        `up to ${MAX_FINDINGS} key findings of at most ${MAX_FINDING_CHARS} characters, decisions with their rationale, the files you modified and how the work was verified. ` +
        "Every member reads the merged team state before starting, and pipelines can react to it.",
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
    },
  },
  teamState: {
    may: "member",
    serve: ({ deps }, _, i) => teamState(deps, i),
    mcp: {
      name: "team_state",
      title: "Read the team state",
      description:
        "The merged state of the team: every member's newest state update (status, task, ref, key findings, decisions, files, verification) with the ones before it. " +
        "Read it before you start, then read the artifacts its refs point at.",
      describe: { team: TEAM, member: "Only this member.", history: "How many earlier updates per member to include, 0–100 (default 5)." },
    },
  },
  appendWisdom: {
    may: "member",
    serve: ({ deps }, a, i) => appendWisdom(deps, a, i),
    mcp: {
      name: "wisdom_append",
      title: "Append to the team's wisdom",
      description:
        "Add what the next member should know to the team's append-only journal: a learning, a decision (with rationale and rejected alternatives), " +
        "a convention (its title is its name; a newer one with the same name replaces it) or an issue. Entries are never edited or deleted.",
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
    },
  },
  listWisdom: {
    may: "member",
    serve: ({ deps }, _, i) => listWisdom(deps, i),
    mcp: {
      name: "wisdom_list",
      title: "Read the team's wisdom",
      description: "The team's learnings, decisions, conventions and issues, oldest first (read newest last); `after` continues from the last id you read.",
      describe: {
        team: TEAM,
        kind: `Only this kind: ${WISDOM_KINDS.join(", ")}.`,
        after: "Only entries after this id (nextAfter of the previous page).",
        limit: LIMIT,
      },
    },
  },
  lookupExploration: {
    may: "member",
    serve: ({ deps }, _, i) => lookupExploration(deps, i),
    mcp: {
      name: "exploration_lookup",
      title: "Look up an exploration",
      description:
        "Before researching something, check whether a teammate already did: a hit returns the cached result, its ref and who found it; " +
        "a miss means explore, then exploration_record what you found.",
      describe: { team: TEAM, angle: ANGLE },
    },
  },
  recordExploration: {
    may: { "angle: already recorded": "exploration.update", otherwise: "member" },
    serve: ({ deps }, a, i) => recordExploration(deps, a, i),
    mcp: {
      name: "exploration_record",
      title: "Record an exploration",
      description:
        "Store the result of researching an angle so nobody researches it again. The first record of an angle makes you its creator; only you may update it later.",
      describe: { team: TEAM, angle: ANGLE, result: "What you found (≤ 20,000 characters).", ref: `${REF} An artifact with the details (optional).` },
    },
  },
  listExplorations: {
    may: "member",
    serve: ({ deps }, _, i) => listExplorations(deps, i),
    mcp: {
      name: "exploration_list",
      title: "List explorations",
      description: "Every cached exploration of the team, by angle, with who created it.",
      describe: { team: TEAM, limit: LIMIT, cursor: "Continue after this angle (nextCursor of the previous page)." },
    },
  },
  editWisdom: {
    may: "member",
    serve: ({ deps }, _, i) => refuseWisdomChange(deps, { team: i.team, id: i.id, change: "edit" }),
    mcp: { none: "wisdom is append-only: the endpoint exists to refuse edits with that rule" },
  },
  deleteWisdom: {
    may: "member",
    serve: ({ deps }, _, i) => refuseWisdomChange(deps, { ...i, change: "delete" }),
    mcp: { none: "wisdom is append-only: the endpoint exists to refuse deletions with that rule" },
  },
});
