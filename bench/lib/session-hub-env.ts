/** The environment of a hub a bench starts to run real sessions: its own data dir, a free port, quiet, the claude under test on the fake API. */
import path from "node:path";
import { CLAUDE_BIN } from "../../e2e/helpers/claude.ts";
import { readEnv } from "../../server/env.ts";

/** `more`: further settings (a Codex runtime's, say). */
export const sessionHubEnv = (dir: string, claudeVars: Record<string, string>, workDir: string, more: Record<string, string> = {}) =>
  readEnv({
    ...process.env,
    TEAMHUB_DATA_DIR: path.join(dir, "data"),
    PORT: "0",
    TEAMHUB_QUIET: "1",
    TEAMHUB_HOST: "127.0.0.1",
    CLAUDE_BIN,
    TEAMHUB_CLAUDE_ENV: JSON.stringify(claudeVars),
    TEAMHUB_WORK_DIR: workDir,
    ...more,
  });
