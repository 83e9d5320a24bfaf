/**
 * The hub's permission policy (docs/domain.md#permissions). Every tool call of a supervised session reaches the hub as a
 * `can_use_tool` request (the session runs with ask rules for all built-in tools), and this
 * decides it: protected paths are denied outright, then the session's allowed-tool rules, then
 * the preset. "ask" means a person decides in the dashboard.
 */
import fs from "node:fs";
import path from "node:path";
import type { Preset } from "../../lib/api/sessions.ts";

export type PolicyDecision =
  { behavior: "allow"; reason: string } | { behavior: "deny"; reason: string; protectedPath?: string } | { behavior: "ask"; reason: string };

export type Policy = {
  preset: Preset;
  allowedTools: string[];
  protectedPaths: string[];
  workDir: string;
  /**
   * The session's own git work tree, which lies inside the hub's data dir (docs/worktrees.md#the-sandbox): path patterns
   * that contain it (the data dir) do not apply inside it; name patterns (`.git`, `.env*`, …) still do.
   */
  ownTree?: string;
  /** Files of its own work tree that `.worktreeinclude` copied in (absolute): the owner consented to their being read there. */
  readable?: ReadonlySet<string>;
  /** The hub's own MCP tools that only read, callable even by read-only sessions. */
  hubReadTools: ReadonlySet<string>;
};

export const BUILTIN_PROTECTED = [".env*", ".git/", "node_modules/", "credentials/"];
/** Protected names that, inside a session's own work tree, are its own dependency copy: it may install into them. */
export const DEPENDENCY_DIRS: ReadonlySet<string> = new Set(["node_modules"]);
export const HUB_SERVER = "teamhub";

const READ_TOOLS = new Set(["Read", "Glob", "Grep", "LS", "NotebookRead"]);
const EDIT_TOOLS = new Set(["Edit", "Write", "MultiEdit", "NotebookEdit"]);
// The CLI's own bookkeeping: no effect outside the conversation.
const INERT_TOOLS = new Set(["TodoWrite", "ToolSearch", "ExitPlanMode", "EnterPlanMode"]);
const PATH_FIELDS = ["file_path", "path", "notebook_path"];

/** Tools the CLI must ask the hub about instead of deciding itself (passed as `permissions.ask`). */
export const ASK_RULES = ["Bash", "Read", "Glob", "Grep", "LS", "Edit", "Write", "MultiEdit", "NotebookEdit", "WebFetch", "WebSearch"];

// Commands that only read; anything with redirection, substitution or chaining is not in this set.
const READ_ONLY_COMMANDS = new Set([
  "ls",
  "cat",
  "head",
  "tail",
  "wc",
  "grep",
  "rg",
  "pwd",
  "echo",
  "which",
  "file",
  "stat",
  "du",
  "df",
  "tree",
  "date",
  "whoami",
  "env",
  "printenv",
  "diff",
  "sort",
  "uniq",
  "cut",
  "basename",
  "dirname",
  "realpath",
]);
const READ_ONLY_GIT = new Set(["status", "log", "diff", "show", "branch", "rev-parse", "ls-files", "blame"]);

export function isReadOnlyCommand(command: string): boolean {
  if (/[;&`$<>(){}\n\\]/.test(command)) return false;
  return command.split("|").every((part) => {
    const words = part.trim().split(/\s+/).filter(Boolean);
    if (words.length === 0) return false;
    if (words[0] === "git") return READ_ONLY_GIT.has(words[1] ?? "");
    if (words[0] === "find") return !words.some((w) => /^-(delete|exec|execdir|ok|okdir|fprint.*|fls)$/.test(w));
    return READ_ONLY_COMMANDS.has(words[0]);
  });
}

export function globToRegExp(glob: string): RegExp {
  return new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, "\\$&")
      .replace(/\*/g, ".*")
      .replace(/\?/g, ".")}$`,
  );
}

/**
 * Where a path really leads: symlinks and `..` resolved by the system as far as the path exists
 * (the deepest existing ancestor), the rest appended as written.
 */
export function realPath(p: string, workDir: string): string {
  let head = path.isAbsolute(p) ? p : `${workDir}/${p}`;
  const tail: string[] = [];
  for (;;) {
    try {
      return path.join(fs.realpathSync.native(head), ...tail);
    } catch {
      const cut = head.lastIndexOf("/");
      if (cut <= 0) return path.resolve(workDir, p);
      tail.unshift(head.slice(cut + 1));
      head = head.slice(0, cut);
    }
  }
}

export type ProtectedPattern = {
  pattern: string;
  /** The pattern without its trailing `/`. */
  body: string;
  /** For a name pattern (no `/` in its body), the regex a path part must match; null for a path pattern. */
  name: RegExp | null;
};

/** Protected patterns parsed once: a path pattern (its body has a `/`) or a name pattern with its regex. */
export function parseProtected(patterns: string[]): ProtectedPattern[] {
  return patterns.map((pattern) => {
    const body = pattern.endsWith("/") ? pattern.slice(0, -1) : pattern;
    return { pattern, body, name: body.includes("/") ? null : globToRegExp(body) };
  });
}

/**
 * `protectedMatch` for many paths under one work dir: the patterns and the work dir's real path resolved once. Inside
 * its own work tree (docs/worktrees.md#the-sandbox) a session's dependency dirs and the files it was given to read
 * (`readable`) are not protected; everything else is, as anywhere.
 */
export function protectedMatcher(
  patterns: string[],
  workDir: string,
  ownTree?: string,
  readable: ReadonlySet<string> = new Set(),
): (p: string) => string | null {
  const roots = [...new Set([workDir, realPath(workDir, "/")])];
  const own = ownTree ? [...new Set([ownTree, realPath(ownTree, "/")])] : [];
  const under = (t: string, d: string) => t === d || t.startsWith(d + path.sep);
  const parsed = parseProtected(patterns).map((x) => ({ ...x, dirs: x.name ? [] : roots.map((r) => path.resolve(r, x.body)) }));
  const ownDependency = (t: string) => {
    const tree = own.find((o) => under(t, o));
    return (
      tree !== undefined &&
      path
        .relative(tree, t)
        .split(path.sep)
        .some((part) => DEPENDENCY_DIRS.has(part))
    );
  };
  return (p) => {
    const all = [...new Set([path.resolve(workDir, p), realPath(p, workDir)])];
    // A file of its own tree it was given to read is fine as written and where it leads, as long as both are that file.
    if (all.every((t) => readable.has(t) && own.some((o) => under(t, o)))) return null;
    // Its own dependency dir is exempt only where the path really stays in it (a link out of it is checked where it leads).
    const targets = all.filter((t) => !ownDependency(t));
    for (const { pattern, name, dirs } of parsed) {
      if (!name) {
        // Inside its own work tree, a pattern that holds the whole tree (the data dir) does not apply.
        const hit = (t: string) => dirs.some((d) => under(t, d) && !own.some((o) => under(o, d) && under(t, o)));
        if (targets.some(hit)) return pattern;
        continue;
      }
      // A name pattern matches any part of the path: the directory itself and everything in it.
      if (targets.some((t) => t.split(path.sep).some((part) => name.test(part)))) return pattern;
    }
    return null;
  };
}

/** Whether a path (absolute, or relative to the work dir) falls under a protected pattern, as written or where it really leads. */
export function protectedMatch(p: string, patterns: string[], workDir: string): string | null {
  return protectedMatcher(patterns, workDir)(p);
}

/**
 * The words of a shell command with quoting removed as the shell would (`.en""v`, `.en\v` and
 * `'.e'nv` are all `.env`), split at blanks, operators and `=`. An approximation: what it misses,
 * the sandbox still stops.
 */
export function shellWords(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let quote: "'" | '"' | null = null;
  const end = () => {
    if (word) words.push(word);
    word = "";
  };
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (c === "\\") {
      word += command[++i] ?? "";
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (/[\s;&|<>()`=]/.test(c)) {
      end();
    } else {
      word += c;
    }
  }
  end();
  return words;
}

// Bounds on expanding one word against the disk: directories read and names returned.
const GLOB_MAX_DIRS = 200;
const GLOB_MAX_MATCHES = 1000;

/** One glob segment as bash matches it: `*`, `?`, `[…]` and `[!…]`; a leading dot must be written. */
function segmentRegExp(segment: string): RegExp {
  let re = "";
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i];
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = segment.indexOf("]", i + 2);
      if (close < 0) re += "\\[";
      else {
        const body = segment.slice(i + 1, close);
        re += `[${body.startsWith("!") || body.startsWith("^") ? `^${body.slice(1)}` : body}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp(`^${re}$`);
}

const hasGlob = (s: string) => /[*?[]/.test(s);

/** The paths a glob word names on disk, relative to the work dir (the word itself when it has no glob). */
export function expandGlob(word: string, workDir: string): string[] {
  if (!hasGlob(word)) return [word];
  const absolute = path.isAbsolute(word);
  let current = [absolute ? "/" : workDir];
  let dirsRead = 0;
  for (const segment of word.split("/").filter(Boolean)) {
    if (!hasGlob(segment)) {
      current = current.map((c) => path.join(c, segment));
      continue;
    }
    const re = segmentRegExp(segment);
    const next: string[] = [];
    for (const dir of current) {
      if (++dirsRead > GLOB_MAX_DIRS) break;
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      for (const name of names) if (re.test(name) && (segment.startsWith(".") || !name.startsWith("."))) next.push(path.join(dir, name));
    }
    current = next.slice(0, GLOB_MAX_MATCHES);
  }
  return [word, ...current];
}

/** Words of a shell command that could be paths, with globs expanded against the work dir. */
function commandPaths(command: string, workDir: string): string[] {
  return shellWords(command)
    .filter((w) => !w.startsWith("-"))
    .flatMap((w) => expandGlob(w, workDir));
}

function touchedProtected(toolName: string, input: Record<string, unknown>, policy: Policy, patterns: string[]): string | null {
  const candidates: string[] = [];
  for (const f of PATH_FIELDS) if (typeof input[f] === "string") candidates.push(input[f] as string);
  if (toolName === "Bash" && typeof input.command === "string") candidates.push(...commandPaths(input.command, policy.workDir));
  if (toolName === "Glob" && typeof input.pattern === "string") candidates.push(input.pattern);
  if (candidates.length === 0) return null;
  const match = protectedMatcher(patterns, policy.workDir, policy.ownTree, policy.readable);
  for (const c of candidates) {
    const hit = match(c);
    if (hit) return `${hit} (${c})`;
  }
  return null;
}

/** `Edit`, `mcp__srv__*`, `Bash(npm test:*)` (prefix) or `Bash(git status)` (exact). */
export function ruleAllows(rule: string, toolName: string, input: Record<string, unknown>): boolean {
  const m = /^([^()]+)(?:\((.*)\))?$/.exec(rule);
  if (!m) return false;
  if (!globToRegExp(m[1]).test(toolName)) return false;
  if (m[2] === undefined) return true;
  const subject = typeof input.command === "string" ? input.command : PATH_FIELDS.map((f) => input[f]).find((v) => typeof v === "string");
  if (typeof subject !== "string") return false;
  const spec = m[2];
  if (spec.endsWith(":*")) return subject === spec.slice(0, -2) || subject.startsWith(`${spec.slice(0, -2)} `);
  return globToRegExp(spec).test(subject);
}

export function decide(policy: Policy, toolName: string, input: Record<string, unknown>): PolicyDecision {
  const hubTool = toolName.startsWith(`mcp__${HUB_SERVER}__`) ? toolName.slice(`mcp__${HUB_SERVER}__`.length) : null;
  if (hubTool === null) {
    const hit = touchedProtected(toolName, input, policy, [...BUILTIN_PROTECTED, ...policy.protectedPaths]);
    if (hit) return { behavior: "deny", reason: `protected path ${hit}: the hub never lets a session touch it`, protectedPath: hit };
  }
  if (INERT_TOOLS.has(toolName)) return { behavior: "allow", reason: "bookkeeping tool" };
  const rule = policy.allowedTools.find((r) => ruleAllows(r, toolName, input));
  if (rule) return { behavior: "allow", reason: `allowed by rule ${rule}` };

  const readOnly = policy.preset === "read-only" || policy.preset === "review" || policy.preset === "plan";
  const isRead =
    READ_TOOLS.has(toolName) ||
    (hubTool !== null && policy.hubReadTools.has(hubTool)) ||
    (toolName === "Bash" && isReadOnlyCommand(String(input.command ?? "")));
  if (isRead) return { behavior: "allow", reason: "reads only" };
  if (readOnly) return { behavior: "deny", reason: `the ${policy.preset} preset allows reading and searching only` };
  if (hubTool !== null) return { behavior: "allow", reason: "Team Hub tool, acting as the session itself" };
  if (policy.preset === "full") return { behavior: "allow", reason: "full preset" };
  if (EDIT_TOOLS.has(toolName)) return { behavior: "allow", reason: "edit preset: edits allowed" };
  return { behavior: "ask", reason: `the edit preset asks a person before ${toolName}` };
}
