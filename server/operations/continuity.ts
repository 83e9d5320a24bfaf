/** Session continuity (docs/domain.md#continuity): the decision journal, the pattern registry, checkpoints and the briefing. */
import { CHECKPOINT_KINDS } from "../../lib/api/continuity.ts";
import { listDecisions, recordDecision } from "../domain/continuity/decisions.service.ts";
import { getPattern, listPatterns, registerPattern } from "../domain/continuity/patterns.service.ts";
import { latestCheckpoint, recordCheckpoint } from "../domain/continuity/checkpoints.service.ts";
import { briefing } from "../domain/continuity/briefing.service.ts";
import { runHook } from "../domain/continuity/hooks.service.ts";
import { area } from "./define.ts";
import { ARTIFACT_ID, CONTRACT_ID, CURSOR, HOOKS, LIMIT, TEAM } from "./fields.ts";

const PATTERN_NAME = "Pattern name: lowercase letters, digits, '.', '_' or '-' (e.g. 'error-envelope').";
const SESSION = "Your Claude Code session id, when you know it: a resumed session is briefed from its own last checkpoint.";

export const continuity = area("continuity", {
  recordDecision: {
    may: "member",
    serve: ({ deps }, a, i) => recordDecision(deps, a, i),
    mcp: {
      name: "decision_record",
      title: "Record a decision",
      description:
        "Write a decision into the team's journal so later sessions (and you, after a compaction) know what was decided and why: title, the decision, " +
        "the rationale, the alternatives that were rejected, and the artifacts and contracts it concerns (they must exist). You are recorded as its author.",
      describe: {
        team: TEAM,
        title: "A short title, e.g. 'Use JWT for sessions' (≤ 200 characters).",
        decision: "What was decided, precisely enough to act on.",
        rationale: "Why this was chosen.",
        alternatives: "Options considered and rejected, one per entry.",
        related: "{artifacts?: [artifact id, …], contracts?: [contract id, …]}: what this decision concerns; each must exist in the team.",
      },
    },
  },
  listDecisions: {
    may: "member",
    serve: ({ deps }, _, i) => listDecisions(deps, i),
    mcp: {
      name: "decision_list",
      title: "List decisions",
      description: "The team's decision journal, newest first, with rationale, alternatives and related artifacts and contracts.",
      describe: {
        team: TEAM,
        since: "Only decisions recorded at or after this ISO 8601 date or date-time (e.g. '2026-01-31').",
        after: "Only decisions with a greater id than this one (the newest decision you have already seen).",
        artifact: `Only decisions related to this artifact. ${ARTIFACT_ID}`,
        contract: `Only decisions related to this contract. ${CONTRACT_ID}`,
        limit: LIMIT,
        cursor: CURSOR,
      },
    },
  },
  registerPattern: {
    may: "member",
    serve: ({ deps }, a, i) => registerPattern(deps, a, i),
    mcp: {
      name: "pattern_register",
      title: "Register a pattern",
      description:
        "Register a project convention under a name (how errors are shaped, how files are named, …) with examples, so every session follows the same one. " +
        "Registering an existing name replaces its description and examples; the same text again changes nothing.",
      describe: {
        team: TEAM,
        name: PATTERN_NAME,
        description: "The convention: what to do and when.",
        examples: "Short examples (code or prose), one per entry.",
      },
    },
  },
  getPattern: {
    may: "member",
    serve: ({ deps }, _, i) => getPattern(deps, i),
    mcp: {
      name: "pattern_get",
      title: "Get a pattern",
      description: "One project convention by name, with its description, examples, author and when it last changed.",
      describe: { team: TEAM, name: PATTERN_NAME },
    },
  },
  listPatterns: {
    may: "member",
    serve: ({ deps }, _, i) => listPatterns(deps, i),
    mcp: {
      name: "pattern_list",
      title: "List patterns",
      description: "The team's registered conventions, by name.",
      describe: { team: TEAM, limit: LIMIT, cursor: "Continue after this pattern name (the nextCursor of the previous page)." },
    },
  },
  briefing: {
    may: { "member: someone else": "continuity.read", otherwise: "member" },
    serve: ({ deps }, a, i) => briefing(deps, a, i),
    mcp: {
      name: "session_briefing",
      title: "Session briefing",
      description:
        "What changed for you since your last checkpoint (or an overview if you have none): your contracts that changed and their status now, artifacts you read " +
        "that have newer versions, your unread messages, new decisions and patterns, and the work-tree files you report. Returns the facts and a markdown summary. " +
        "Reading it records nothing; the Claude Code hooks installed by `teamhub setup --hooks` record checkpoints.",
      describe: {
        team: TEAM,
        claudeSessionId: SESSION,
        member: "Brief this member instead of yourself.",
        git: "{head?, since?, changedFiles?}: your work tree's HEAD commit, the commit changedFiles are counted from, and the changed paths (optional).",
      },
    },
  },
  recordCheckpoint: {
    may: "member",
    serve: ({ deps }, a, i) => recordCheckpoint(deps, a, i),
    mcp: {
      name: "session_checkpoint",
      title: "Record a checkpoint",
      description:
        "Note where your work stands, so your next briefing counts from here and reminds you where you left off: a kind, and optionally your working directory, " +
        "git HEAD, a short summary and the files you changed. The hooks of `teamhub setup --hooks` do this at every Stop, PreCompact and SessionEnd; call it yourself " +
        "when there are no hooks, or before a compaction you start on purpose. The checkpoint is always your own.",
      describe: {
        team: TEAM,
        kind: `One of ${CHECKPOINT_KINDS.join(", ")}: 'stop' after a piece of work, 'pre_compact' before your context is compacted.`,
        claudeSessionId: SESSION,
        state: "{cwd?, head?, summary?, changedFiles?}: your working directory, git HEAD commit, where you are (≤ 4,000 characters) and changed paths.",
      },
    },
  },
  latestCheckpoint: {
    may: { "member: someone else": "continuity.read", otherwise: "member" },
    serve: ({ deps }, a, i) => latestCheckpoint(deps, a, i),
    mcp: { none: HOOKS },
  },
  hook: {
    may: "member",
    serve: ({ deps }, a, i) => runHook(deps, a, i),
    mcp: { none: HOOKS },
  },
  /** The same read as `briefing`, by POST for callers whose git facts (a list of files) do not fit a query string. */
  briefingPost: {
    may: { "member: someone else": "continuity.read", otherwise: "member" },
    serve: ({ deps }, a, i) => briefing(deps, a, i),
    mcp: { none: HOOKS },
  },
});
