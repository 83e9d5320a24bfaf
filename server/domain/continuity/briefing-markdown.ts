/**
 * A briefing as short markdown for a model's context (Claude Code's `additionalContext`): only
 * sections with something in them, long texts clipped, and "… and N more" pointing at the tool
 * that lists the rest, so the text stays a few kilobytes whatever happened.
 */
import type { BriefContract, Briefing, ContractChange, Section } from "../../../lib/api/continuity.ts";
import { clip, knowledgeSections } from "../knowledge/context.ts";

const SHOWN_FILES = 20;

const when = (d: Date) => d.toISOString().replace(/\.\d+Z$/, "Z");
const short = (head: string) => head.slice(0, 12);

function more<T>(s: Section<T>, hint: string): string[] {
  return s.total > s.items.length ? [`- … and ${s.total - s.items.length} more (${hint})`] : [];
}

function change(c: ContractChange): string {
  if (c.event === "created") return `created (${c.to}) by ${c.by}`;
  if (c.event === "reassigned") return `reassigned ${c.from} → ${c.to} by ${c.by}`;
  return `${c.from} → ${c.to}${c.reason ? ` (${clip(c.reason, 120)})` : ""}`;
}

function contract(c: BriefContract, principal: string): string {
  const now = c.status === null ? "no longer exists" : c.assignee !== principal ? `now ${c.status}, assigned to ${c.assignee}` : `now ${c.status}`;
  const title = c.title ? ` "${clip(c.title, 100)}"` : "";
  return `- ${c.id}${title}: ${now}${c.changes.length ? `; ${c.changes.map(change).join("; ")}` : ""}`;
}

export function renderBriefing(b: Omit<Briefing, "markdown">): string {
  const first = b.since === null;
  const out = [`# Team Hub briefing for ${b.principal} (team ${b.team})`, ""];
  if (b.since) {
    const head = b.since.state.head ? `, HEAD ${short(b.since.state.head)}` : "";
    out.push(`Changes since your last checkpoint (${b.since.kind.replace("_", " ")} at ${when(b.since.at)}${head}).`);
    if (b.since.state.summary) out.push(`Where you left off: ${clip(b.since.state.summary, 600)}`);
  } else {
    out.push("No checkpoint of yours yet: this is an overview of where things stand.");
  }
  let sections = 0;
  const section = (title: string, lines: string[]) => {
    if (!lines.length) return;
    out.push("", `## ${title}`, ...lines);
    sections++;
  };

  section(first ? `Your open contracts (${b.contracts.total})` : `Your contracts that changed (${b.contracts.total})`, [
    ...b.contracts.items.map((c) => contract(c, b.principal)),
    ...more(b.contracts, "contract_list"),
  ]);
  section(`Artifacts you read that have newer versions (${b.artifacts.total})`, [
    ...b.artifacts.items.map(
      (a) =>
        `- ${a.id} (${a.type}): you read v${a.readVersion}, current is v${a.currentVersion} by ${a.publisher}${a.summary ? ` — ${clip(a.summary, 160)}` : ""}`,
    ),
    ...more(b.artifacts, "artifact_get each to read the new version"),
  ]);
  if (b.messages.unread) {
    section(`Unread messages (${b.messages.unread})`, [
      ...b.messages.first.map((m) => `- from ${m.sender} (${m.kind}, ${when(m.at)}): ${clip(m.text, 300)}`),
      ...(b.messages.unread > b.messages.first.length ? [`- … and ${b.messages.unread - b.messages.first.length} more (check your inbox)`] : []),
    ]);
  }
  section(first ? `Recent decisions (${b.decisions.total})` : `New decisions (${b.decisions.total})`, [
    ...b.decisions.items.map((d) => `- #${d.id} ${clip(d.title, 120)} (${d.author}): ${clip(d.decision, 240)}`),
    ...more(b.decisions, "decision_list"),
  ]);
  section(first ? `Project patterns (${b.patterns.total})` : `New or changed patterns (${b.patterns.total})`, [
    ...b.patterns.items.map((p) => `- ${p.name}: ${clip(p.description, 200)}`),
    ...more(b.patterns, "pattern_list / pattern_get"),
  ]);
  for (const [title, lines] of knowledgeSections(b, b.principal)) section(title, lines);
  if (b.git?.changedFiles.length) {
    const files = b.git.changedFiles;
    const range = b.git.since && b.git.head && b.git.since !== b.git.head ? ` (since ${short(b.git.since)}, now ${short(b.git.head)})` : "";
    section(`Files changed in the work tree${range} (${files.length})`, [
      ...files.slice(0, SHOWN_FILES).map((f) => `- ${f}`),
      ...(files.length > SHOWN_FILES ? [`- … and ${files.length - SHOWN_FILES} more`] : []),
    ]);
  }
  if (sections === 0)
    out.push("", first ? "Nothing assigned to you, no unread messages, no decisions, patterns or team knowledge yet." : "Nothing changed for you since then.");
  return out.join("\n");
}
