/**
 * For the continuity tests: a real git work tree in a temporary directory, and `teamhub hook`
 * run as Claude Code runs it (a process with the hook's JSON on stdin).
 */
import { spawnSync } from "node:child_process";
import { BIN, ROOT } from "./hub-process.ts";

export { workTree, type WorkTree } from "../../server/testing/work-tree.ts";

export type HookRun = { code: number | null; stdout: string; stderr: string; output: () => any };

/** `teamhub hook <event>` with `input` on stdin, as the principal of TEAMHUB_TOKEN in `env`. */
export function runHook(event: string, input: unknown, env: Record<string, string>, args: string[] = []): HookRun {
  const r = spawnSync(process.execPath, [BIN, "hook", event, ...args], {
    cwd: ROOT,
    input: typeof input === "string" ? input : JSON.stringify(input),
    env: { ...process.env, TEAMHUB_URL: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, output: () => JSON.parse(r.stdout) };
}
