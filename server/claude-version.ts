/**
 * Which Claude Code the hub's sessions run, and whether that release is one the session tests run against
 * (docs/distribution.md#claude-code-versions): the oldest supported one and the current one pinned in package.json. The hub
 * learns the version at start, reports it on /api/health and warns when it is outside that range; a release newer
 * than the tested one usually works (the CLI's stream protocol changes rarely), so it is flagged, not refused.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import type { ClaudeConfig } from "./env.ts";
import { childEnv, resolveClaudeBin } from "./supervisor/launch.ts";

/** The oldest release the session tests pass with (`TEAMHUB_TEST_CLAUDE=oldest`). */
export const OLDEST_SUPPORTED = "2.1.197";
/** The release the tests run by default: the devDependency @anthropic-ai/claude-code. */
export const NEWEST_TESTED = "2.1.332";
export const SUPPORTED_RANGE = `${OLDEST_SUPPORTED} – ${NEWEST_TESTED}`;

export type ClaudeCodeInfo = { version: string | null; supported: boolean | null; range: string };

const parts = (v: string) => v.split(".").map((p) => Number.parseInt(p, 10) || 0);

/** <0, 0, >0 as a is older than, the same as, or newer than b (major.minor.patch). */
export function compareVersions(a: string, b: string): number {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
  return 0;
}

export function infoOf(version: string | null): ClaudeCodeInfo {
  const supported = version === null ? null : compareVersions(version, OLDEST_SUPPORTED) >= 0 && compareVersions(version, NEWEST_TESTED) <= 0;
  return { version, supported, range: SUPPORTED_RANGE };
}

/** What the hub says at start about a version outside the range; null when there is nothing to say. */
export function rangeWarning(version: string): string | null {
  if (compareVersions(version, OLDEST_SUPPORTED) < 0) {
    return `Claude Code ${version} is older than the oldest supported release (${OLDEST_SUPPORTED}); sessions may misbehave: update it (npm i -g @anthropic-ai/claude-code)`;
  }
  if (compareVersions(version, NEWEST_TESTED) > 0) {
    return `Claude Code ${version} is newer than the newest tested release (${NEWEST_TESTED}); it will most likely work, and a failing session says what changed`;
  }
  return null;
}

const VERSION = /(\d+\.\d+\.\d+)/;
const Manifest = z.object({ name: z.string(), version: z.string().regex(VERSION) });

/**
 * The version of an npm-installed CLI from its package.json (the `claude` on PATH links into
 * @anthropic-ai/claude-code or its platform package), without running it: free at every start.
 */
export function versionFromPackage(bin: string): string | null {
  let dir: string;
  try {
    dir = path.dirname(fs.realpathSync(bin));
  } catch {
    return null;
  }
  for (let i = 0; i < 4; i++, dir = path.dirname(dir)) {
    try {
      const m = Manifest.safeParse(JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")));
      if (m.success && m.data.name.startsWith("@anthropic-ai/claude-code")) return VERSION.exec(m.data.version)![1];
    } catch {
      // no package.json here
    }
  }
  return null;
}

/** `claude --version` ("2.1.332 (Claude Code)"), for a CLI installed some other way; null when it cannot tell. */
export function versionFromCli(bin: string, env: Record<string, string>, timeoutMs = 15_000): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(bin, ["--version"], { env: env as NodeJS.ProcessEnv, timeout: timeoutMs, encoding: "utf8" }, (err, stdout) =>
      resolve(err ? null : (VERSION.exec(stdout)?.[1] ?? null)),
    );
  });
}

export type ClaudeCodeProbe = { current(): ClaudeCodeInfo; ready: Promise<ClaudeCodeInfo> };

/**
 * Finds the CLI the sessions will run (CLAUDE_BIN, else `claude` on their PATH) and its version, logging a warning
 * when it is outside the supported range. Never delays the start: `claude --version` runs in the background.
 */
export function probeClaudeCode(config: ClaudeConfig, log: (m: string) => void, warn: (m: string) => void): ClaudeCodeProbe {
  let info = infoOf(null);
  const settle = (version: string | null, bin: string) => {
    info = infoOf(version);
    if (version === null) log(`Claude Code at ${bin}: version unknown (\`claude --version\` gave none)`);
    else {
      const warning = rangeWarning(version);
      if (warning) warn(warning);
      else log(`Claude Code ${version} (supported: ${SUPPORTED_RANGE})`);
    }
    return info;
  };
  let bin: string;
  const env = childEnv(config);
  try {
    bin = resolveClaudeBin(config, env);
  } catch (e) {
    log(`Claude Code: ${(e as Error).message}`);
    return { current: () => info, ready: Promise.resolve(info) };
  }
  const known = versionFromPackage(bin);
  const ready = known !== null ? Promise.resolve(settle(known, bin)) : versionFromCli(bin, env).then((v) => settle(v, bin));
  return { current: () => info, ready };
}
