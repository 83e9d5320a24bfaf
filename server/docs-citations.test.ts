/**
 * The design lives in docs/ (docs/README.md), and code cites it by heading. These checks keep the
 * citations honest and the prose self-contained:
 *
 * - every `docs/<file>.md#<heading>` or `README.md#<heading>` named anywhere in the tracked files, and every link
 *   between the docs and from the README, resolves to a file and a heading that exist;
 * - no document or code comment (nor a test's title) leans on what a reader of the repository cannot open: an
 *   issue or pull request by number, numbered sections (§N) or patterns ("Pattern 4") of a specification kept
 *   elsewhere, a Markdown file that is not in the repository, a path that leads out of it (`../shared/`), or "the
 *   seed", "the reference" or "the spec" as a source. Each sentence says the behaviour instead.
 *
 * Comments and test titles are read from the TypeScript syntax tree, so a string the code uses (a fixture, a
 * message) is never taken for prose.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?|ttf|gz|zip|db|sqlite)$/i;
const CODE = /\.(ts|tsx|mts|cts|js|mjs|cjs|jsx)$/;

type TrackedFile = { file: string; text: string };

function trackedTextFiles(): TrackedFile[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: ROOT, encoding: "utf8" }).split("\0").filter(Boolean);
  return files
    .filter((f) => !BINARY.test(f) && f !== "package-lock.json" && fs.existsSync(path.join(ROOT, f)))
    .map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), "utf8") }));
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function headingSlugs(markdown: string): Set<string> {
  const slugs = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    slugs.add(n === 0 ? base : `${base}-${n}`);
  }
  return slugs;
}

/** A cited document by its path from the repository's root (`docs/domain.md`, `README.md`). */
type Citation = { from: string; doc: string; anchor: string | undefined };

function citations(files: TrackedFile[]): Citation[] {
  const found: Citation[] = [];
  for (const { file, text } of files) {
    for (const m of text.matchAll(/(?<![\w/.-])docs\/([A-Za-z0-9_-]+\.md)(?:#([A-Za-z0-9_-]+))?/g)) {
      found.push({ from: file, doc: `docs/${m[1]}`, anchor: m[2] });
    }
    // The repository's README by heading: `README.md#…` from the root, `../README.md#…` from docs/.
    for (const m of text.matchAll(/(?<![\w/.-])(?:\.\.\/)?README\.md#([A-Za-z0-9_-]+)/g)) {
      if (m[0].startsWith("../") === file.startsWith("docs/")) found.push({ from: file, doc: "README.md", anchor: m[1] });
    }
    // Links between the docs themselves are relative: [text](other.md#heading) or (#heading); the README's own
    // headings are linked as (#heading) too.
    if (file.startsWith("docs/") || file === "README.md") {
      for (const m of text.matchAll(/\]\((?!https?:)([A-Za-z0-9_-]+\.md)?(?:#([A-Za-z0-9_-]+))?\)/g)) {
        const doc = m[1] === undefined ? file : file === "README.md" ? m[1] : `docs/${m[1]}`;
        found.push({ from: file, doc, anchor: m[2] });
      }
    }
  }
  return found;
}

/** The prose of a file: a code file's comments and test titles, with the line each starts on; anything else whole. */
export function proseOf(file: string, text: string): { line: number; text: string }[] {
  if (!CODE.test(file)) return [{ line: 1, text }];
  const kind = /\.(tsx|jsx)$/.test(file) ? ts.ScriptKind.TSX : /\.(js|mjs|cjs)$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = new Map<number, string>();
  const comment = (r: ts.CommentRange) => found.set(r.pos, text.slice(r.pos, r.end));
  const visit = (node: ts.Node) => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    ts.forEachLeadingCommentRange(text, node.getFullStart(), (pos, end, k) => comment({ pos, end, kind: k }));
    ts.forEachTrailingCommentRange(text, node.getEnd(), (pos, end, k) => comment({ pos, end, kind: k }));
    if (ts.isCallExpression(node) && /^(describe|it|test)$/.test(calleeRoot(node.expression))) {
      const title = node.arguments[0];
      if (title && (ts.isStringLiteral(title) || ts.isNoSubstitutionTemplateLiteral(title) || ts.isTemplateExpression(title))) {
        found.set(title.getStart(), title.getText());
      }
    }
    node.getChildren(source).forEach(visit);
  };
  visit(source);
  return [...found].sort(([a], [b]) => a - b).map(([pos, t]) => ({ line: source.getLineAndCharacterOfPosition(pos).line + 1, text: t }));
}

/** `describe`, `it.each(…)`, `describe.skip`: the identifier a test call starts from. */
function calleeRoot(e: ts.Expression): string {
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return calleeRoot(e.expression);
  if (ts.isCallExpression(e)) return calleeRoot(e.expression);
  return "";
}

/** What prose must not lean on, each with the reason a reader is given. */
const OUTSIDE = [
  { rule: /\b(?:issues?|pull requests?|PRs?)\s+#?\d+/i, why: "an issue or pull request by number: say the behaviour" },
  { rule: /\u00a7\s*\d/, why: "a numbered section (§N) of a specification outside the repository" },
  { rule: /\bPatterns? \d+\b|\bSTRATEGY\b/, why: "a pattern of a strategy document outside the repository" },
  { rule: /\.\.\/shared\b|(?<![\w$/.-])shared\/reference\b/, why: "a path outside the repository" },
  {
    rule: /\bseeds?(?:'s|')?\s+(?:README|Quick Start|strategy|scenario|allocation|examples?)\b|\bthe seeds?(?:'s|')/i,
    why: "the seed documents, which are not in the repository",
  },
  { rule: /\bthe reference(?:'s| CLI\b)|\bthe spec(?:ification)?\b/i, why: "a reference or specification outside the repository" },
];

/** Markdown files a document may name without holding them: the ones Claude Code reads in a user's project. */
const NOT_OURS = new Set(["CLAUDE.md"]);

/**
 * The Markdown documents a line names as sources: a relative path (`shared/reference/x.md`, `../notes/x.md`) or a
 * document by its capitalised name (`SPEC.md`). An absolute path or a lower-case bare name (`/work/notes.md`,
 * `notes.md`) is an example of a user's file, not a source.
 */
export function documentsNamed(line: string): string[] {
  return [...line.matchAll(/(?<![\w@$~/.-])(?:[\w.-]+\/)*[\w-]+\.md\b/g)]
    .map((m) => m[0])
    .filter((name) => !NOT_OURS.has(path.basename(name)) && (name.includes("/") || /^[A-Z]/.test(name)));
}

describe("design citations", () => {
  const files = trackedTextFiles();

  it("every docs/<file>.md#<heading> or README.md#<heading> cited in code, or linked between docs, names a heading that exists", () => {
    const cited = citations(files);
    expect(cited.length).toBeGreaterThan(100);
    const slugsOf = new Map<string, Set<string> | null>();
    const broken = cited.filter(({ doc, anchor }) => {
      if (!slugsOf.has(doc)) {
        const p = path.join(ROOT, doc);
        slugsOf.set(doc, fs.existsSync(p) ? headingSlugs(fs.readFileSync(p, "utf8")) : null);
      }
      const slugs = slugsOf.get(doc);
      return slugs === null || (anchor !== undefined && !slugs!.has(anchor));
    });
    expect(broken.map((c) => `${c.from} → ${c.doc}${c.anchor ? `#${c.anchor}` : ""}`)).toEqual([]);
  });

  it("no document, comment or test title leans on an issue number or on a document outside the repository", () => {
    const tracked = new Set(files.map((f) => f.file));
    const basenames = new Set(files.map((f) => path.basename(f.file)));
    const offenders: string[] = [];
    for (const { file, text } of files) {
      if (file === "server/docs-citations.test.ts") continue;
      for (const prose of proseOf(file, text)) {
        prose.text.split("\n").forEach((line, i) => {
          const where = `${file}:${prose.line + i}: ${line.trim()}`;
          for (const { rule, why } of OUTSIDE) if (rule.test(line)) offenders.push(`${where}  (${why})`);
          for (const name of documentsNamed(line)) {
            const known = name.includes("/")
              ? tracked.has(name) || tracked.has(path.posix.normalize(path.posix.join(path.posix.dirname(file), name)))
              : basenames.has(name);
            if (!known) offenders.push(`${where}  (${name} is not in the repository)`);
          }
        });
      }
    }
    expect([...new Set(offenders)]).toEqual([]);
  });

  it("takes relative paths and capitalised names of Markdown files for sources, not examples of a user's files", () => {
    expect(documentsNamed("see SPEC.md and ../shared/reference/protocol.md, docs/domain.md")).toEqual([
      "SPEC.md",
      "../shared/reference/protocol.md",
      "docs/domain.md",
    ]);
    expect(documentsNamed("Write notes.md, then Write(/work/notes.md) and ~/.claude/CLAUDE.md; the user's CLAUDE.md")).toEqual([]);
  });

  it("slugs headings the way GitHub does", () => {
    const md = "# A: b\n## The CLI's config dir\n```\n# not a heading\n```\n## Dry runs\n## Dry runs\n### `tx.emit` and (after) commit\n";
    expect([...headingSlugs(md)]).toEqual(["a-b", "the-clis-config-dir", "dry-runs", "dry-runs-1", "txemit-and-after-commit"]);
  });

  it("reads a code file's comments and test titles, not its strings", () => {
    const code = [
      "// see issue 12",
      'const s = "issue 13 is a fixture";',
      "/** Pattern 4 */",
      'describe("Pattern 2: a title", () => it(`issue ${1} too`, () => {}));',
      "const re = /https?:\\/\\//; // after a regex",
    ].join("\n");
    expect(proseOf("x.test.ts", code).map((p) => [p.line, p.text])).toEqual([
      [1, "// see issue 12"],
      [3, "/** Pattern 4 */"],
      [4, '"Pattern 2: a title"'],
      [4, "`issue ${1} too`"],
      [5, "// after a regex"],
    ]);
  });
});
