/**
 * The design lives in docs/ (docs/README.md), and code cites it by heading. These checks keep the
 * citations honest: no comment points at numbered sections of a specification outside the
 * repository, and every `docs/<file>.md#<heading>` named anywhere in the tracked files, or linked
 * between the docs themselves, resolves to a file and a heading that exist.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.join(import.meta.dirname, "..");
const BINARY = /\.(png|jpe?g|gif|ico|webp|woff2?|ttf|gz|zip|db|sqlite)$/i;

function trackedTextFiles(): { file: string; text: string }[] {
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

type Citation = { from: string; doc: string; anchor: string | undefined };

function citations(files: { file: string; text: string }[]): Citation[] {
  const found: Citation[] = [];
  for (const { file, text } of files) {
    for (const m of text.matchAll(/(?<![\w/.-])docs\/([A-Za-z0-9_-]+\.md)(?:#([A-Za-z0-9_-]+))?/g)) found.push({ from: file, doc: m[1], anchor: m[2] });
    // Links between the docs themselves are relative: [text](other.md#heading) or (#heading).
    if (file.startsWith("docs/")) {
      for (const m of text.matchAll(/\]\((?!https?:)([A-Za-z0-9_-]+\.md)?(?:#([A-Za-z0-9_-]+))?\)/g)) {
        found.push({ from: file, doc: m[1] ?? path.basename(file), anchor: m[2] });
      }
    }
  }
  return found;
}

describe("design citations", () => {
  const files = trackedTextFiles();

  it("no tracked file cites numbered sections (\u00a7N) of a specification outside the repository", () => {
    const offenders = files.flatMap(({ file, text }) =>
      text.split("\n").flatMap((line, i) => (/\u00a7\s*\d/.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(offenders).toEqual([]);
  });

  it("every docs/<file>.md#<heading> cited in code or linked between docs names a heading that exists", () => {
    const cited = citations(files);
    expect(cited.length).toBeGreaterThan(100);
    const slugsOf = new Map<string, Set<string> | null>();
    const broken = cited.filter(({ doc, anchor }) => {
      if (!slugsOf.has(doc)) {
        const p = path.join(ROOT, "docs", doc);
        slugsOf.set(doc, fs.existsSync(p) ? headingSlugs(fs.readFileSync(p, "utf8")) : null);
      }
      const slugs = slugsOf.get(doc);
      return slugs === null || (anchor !== undefined && !slugs!.has(anchor));
    });
    expect(broken.map((c) => `${c.from} → docs/${c.doc}${c.anchor ? `#${c.anchor}` : ""}`)).toEqual([]);
  });

  it("slugs headings the way GitHub does", () => {
    const md = "# A: b\n## The CLI's config dir\n```\n# not a heading\n```\n## Dry runs\n## Dry runs\n### `tx.emit` and (after) commit\n";
    expect([...headingSlugs(md)]).toEqual(["a-b", "the-clis-config-dir", "dry-runs", "dry-runs-1", "txemit-and-after-commit"]);
  });
});
