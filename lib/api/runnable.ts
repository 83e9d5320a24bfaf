/**
 * Runnable work trees (docs/worktrees.md#runnable-work-trees): the `worktree` block of a repository's `teamhub.json`
 * (or of the team's settings), and the views and inputs of setup, run and their output. Every door parses with these.
 */
import { z } from "zod";
import { MemberName as SessionName } from "../ids.ts";
import { Cursor, Flag } from "./common.ts";
import { IsoDate } from "./endpoint.ts";

export const SETUP_TIMEOUT_DEFAULT_MS = 10 * 60_000;
export const SETUP_TIMEOUT_MAX_MS = 2 * 3600_000;
export const MAX_PORTS = 16;

const Command = z
  .string({ error: "must be a string (a shell command)" })
  .trim()
  .min(1, { error: "must not be empty" })
  .max(4000, { error: "must be at most 4000 characters" });

/** What makes a work tree runnable: each field optional, unknown fields refused (a typo must not pass silently). */
export const RunnableConfig = z
  .object({
    /** Run once in a new work tree before the session's first turn (e.g. `npm ci`). */
    setup: Command.optional(),
    /** A long-running command (a dev server) started and stopped on request. */
    run: Command.optional(),
    /** Run before the work tree is removed (discard, delete). */
    archive: Command.optional(),
    /** How many ports of the hub's range the session holds (PORT is the first). */
    ports: z
      .number({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(0, { error: "must be at least 0" })
      .max(MAX_PORTS, { error: `must be at most ${MAX_PORTS}` })
      .optional(),
    /** Setup is killed after this long. */
    setupTimeoutMs: z
      .number({ error: "must be a number" })
      .int({ error: "must be a whole number" })
      .min(1000, { error: "must be at least 1000 (one second)" })
      .max(SETUP_TIMEOUT_MAX_MS, { error: `must be at most ${SETUP_TIMEOUT_MAX_MS} (two hours)` })
      .optional(),
  })
  .strict();
export type RunnableConfig = z.infer<typeof RunnableConfig>;

/** `teamhub.json` at a repository's root: only `worktree` is read; other top-level keys are refused too. */
export const TeamHubJson = z.object({ worktree: RunnableConfig.optional() }).strict();

export const RUNNABLE_SOURCES = ["teamhub.json", "team settings"] as const;

/** The config in force for a work tree, with where it came from and its defaults filled in. */
export const RunnableView = z.object({
  source: z.enum(RUNNABLE_SOURCES),
  setup: z.string().nullable(),
  run: z.string().nullable(),
  archive: z.string().nullable(),
  ports: z.number().int(),
  setupTimeoutMs: z.number().int(),
});
export type RunnableView = z.output<typeof RunnableView>;

export const SETUP_STATUSES = ["pending", "running", "succeeded", "failed"] as const;
export const RUN_STATUSES = ["running", "exited", "stopped"] as const;

/** What a session's page shows of its runnable work tree. */
export const RunnableState = z.object({
  name: z.string(),
  config: RunnableView.nullable(),
  /** Gitignored files `.worktreeinclude` copied in (relative to the work tree). */
  included: z.array(z.string()),
  ports: z.array(z.number().int()),
  setup: z.object({
    status: z.enum(SETUP_STATUSES).nullable(),
    exitCode: z.number().int().nullable(),
    error: z.string().nullable(),
    startedAt: IsoDate.nullable(),
    finishedAt: IsoDate.nullable(),
  }),
  run: z.object({
    status: z.enum(RUN_STATUSES).nullable(),
    exitCode: z.number().int().nullable(),
    startedAt: IsoDate.nullable(),
    endedAt: IsoDate.nullable(),
    /** http://localhost:<PORT> while it runs and the session holds a port. */
    url: z.string().nullable(),
  }),
});
export type RunnableState = z.output<typeof RunnableState>;

export const OUTPUT_KINDS = ["setup", "run", "archive"] as const;
export const OutputKind = z.enum(OUTPUT_KINDS, { error: `must be one of ${OUTPUT_KINDS.join(", ")}` });
export type OutputKind = z.infer<typeof OutputKind>;

export const RunnableInput = z.object({ name: SessionName }).strict();
export type RunnableInput = z.infer<typeof RunnableInput>;

export const OutputInput = z
  .object({
    name: SessionName,
    kind: OutputKind.default("setup"),
    /** Only pieces with an id greater than this (to follow). */
    after: Cursor,
  })
  .strict();
export type OutputInput = z.infer<typeof OutputInput>;

export const OutputPiece = z.object({ id: z.number().int(), kind: OutputKind, text: z.string(), at: IsoDate });
export type OutputPiece = z.output<typeof OutputPiece>;

export const OutputView = z.object({
  name: z.string(),
  kind: OutputKind,
  pieces: z.array(OutputPiece),
  /** Whether the command is still running (a follower keeps reading). */
  running: z.boolean(),
});
export type OutputView = z.output<typeof OutputView>;

export const RunInput = z
  .object({
    name: SessionName,
    /** true: stop the run command instead of starting it. */
    stop: Flag.default(false),
  })
  .strict();
export type RunInput = z.infer<typeof RunInput>;
