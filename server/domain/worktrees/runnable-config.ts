/**
 * What makes a work tree runnable (docs/worktrees.md#runnable-work-trees): `teamhub.json` and `.worktreeinclude` are read
 * from a commit of the base branch, never from a session's own files, so a session can change what runs for others
 * only through a merge. A repository without `teamhub.json` gets the team's `worktree` setting.
 */
import { SETUP_TIMEOUT_DEFAULT_MS, TeamHubJson, type RunnableConfig, type RunnableView } from "../../../lib/api/runnable.ts";
import { invalidField } from "../../errors.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { git } from "./git.ts";

export const CONFIG_FILE = "teamhub.json";
export const INCLUDE_FILE = ".worktreeinclude";

/** A file's text at a commit, or null when the commit does not have it. */
async function fileAt(repoDir: string, commit: string, file: string): Promise<string | null> {
  const r = await git(repoDir, ["cat-file", "blob", `${commit}:${file}`], { ok: [128] });
  return r.code === 0 ? r.stdout : null;
}

const view = (c: RunnableConfig, source: RunnableView["source"]): RunnableView => ({
  source,
  setup: c.setup ?? null,
  run: c.run ?? null,
  archive: c.archive ?? null,
  ports: c.ports ?? 1,
  setupTimeoutMs: c.setupTimeoutMs ?? SETUP_TIMEOUT_DEFAULT_MS,
});

/**
 * The config in force at `commit`: its `teamhub.json` (checked: a bad file refuses the spawn naming the field), else the
 * team's setting; null when neither says anything.
 */
export async function runnableAt(repoDir: string, commit: string, teamDefault: RunnableConfig | null): Promise<RunnableView | null> {
  const text = await fileAt(repoDir, commit, CONFIG_FILE);
  if (text === null) return teamDefault ? view(teamDefault, "team settings") : null;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw invalidField(CONFIG_FILE, "json", `${CONFIG_FILE} at ${commit.slice(0, 12)} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = parseOrThrow(TeamHubJson, json, CONFIG_FILE);
  return parsed.worktree ? view(parsed.worktree, CONFIG_FILE) : null;
}

/**
 * The patterns of `.worktreeinclude` at `commit` (gitignore syntax), checked: a pattern that leaves the repository
 * (a `..` part, or `~`) is refused: git would quietly never match it, and the owner meant something else. A leading `/`
 * anchors at the repository's root, as in `.gitignore`.
 */
export async function includePatternsAt(repoDir: string, commit: string): Promise<string[]> {
  const text = await fileAt(repoDir, commit, INCLUDE_FILE);
  if (text === null) return [];
  const patterns: string[] = [];
  for (const [i, raw] of text.split("\n").entries()) {
    const line = raw.replace(/\r$/, "").trimEnd();
    if (!line || line.startsWith("#")) continue;
    const body = line.replace(/^!/, "");
    if (body.split("/").some((part) => part === "..") || body.startsWith("~")) {
      throw invalidField(`${INCLUDE_FILE}:${i + 1}`, "inside_repository", `'${line}' names a path outside the repository`, line);
    }
    patterns.push(line);
  }
  return patterns;
}
