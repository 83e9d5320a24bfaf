/**
 * For the `teamhub setup` tests: a temporary home with a project and a Claude config directory,
 * and setup run in it against a hub, with or without a `claude` binary on the way.
 */
import fs from "node:fs";
import path from "node:path";
import { tempDir } from "../../server/testing/temp-dir.ts";
import { CLAUDE_BIN } from "./claude.ts";
import { cli, type CliResult } from "./hub-process.ts";

export type Sandbox = { root: string; project: string; config: string };

export function sandbox(): Sandbox {
  const root = tempDir("setup");
  const project = path.join(root, "project");
  const config = path.join(root, "claude-config");
  fs.mkdirSync(project);
  return { root, project, config };
}

/** Every file under dir, relative, sorted. */
export function files(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/** `teamhub setup --project <box.project> …args` as a user whose HOME and Claude config are the sandbox's. */
export function runSetup(dataDir: string, box: Sandbox, withClaude: boolean, ...args: string[]): CliResult {
  const pathWithoutClaude = (process.env.PATH ?? "")
    .split(path.delimiter)
    .filter((d) => !fs.existsSync(path.join(d, "claude")))
    .join(path.delimiter);
  const env = {
    HOME: box.root,
    CLAUDE_CONFIG_DIR: box.config,
    PATH: pathWithoutClaude,
    CLAUDE_BIN: withClaude ? CLAUDE_BIN : "",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  };
  return cli(dataDir, ["setup", "--project", box.project, ...args], env);
}
