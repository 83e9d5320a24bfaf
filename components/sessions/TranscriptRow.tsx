import { duration, usd } from "@/lib/format.ts";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { FileDiff } from "../code/FileDiff.tsx";
import { RetryTurn } from "../fixes/RetryTurn.tsx";
import { JsonView } from "../ui/JsonView.tsx";
import { Folded } from "./Folded.tsx";
import { Markdown } from "./Markdown.tsx";
import { toolEdit } from "./tool-edits.ts";
import { relativeInput, summarizeInput, turnEnding, type Item, type PermissionDecision } from "./transcript-model.ts";

const PLAN_MARK: Record<string, string> = { completed: "✓", in_progress: "▸", pending: "○" };
const DECISION_LABEL = { pending: "waiting for a decision", allowed: "allowed", denied: "denied", withdrawn: "withdrawn" } as const;

/** What the row needs of its session: its paths made relative, and Retry for the turn that may be retried. */
export type RowContext = {
  rel: (text: string) => string;
  interactions: Map<number, InteractionView>;
  retry: { team: string; name: string; id: number } | null;
};

function ResultFooter({ item, interaction, ctx }: { item: Extract<Item, { kind: "result" }>; interaction: InteractionView | undefined; ctx: RowContext }) {
  const ending = turnEnding(item, interaction);
  const parts = [
    ending.text,
    interaction ? usd(interaction.costUsd) : null,
    item.turns !== null ? `${item.turns} model turn${item.turns === 1 ? "" : "s"}` : null,
    item.durationMs !== null ? duration(item.durationMs) : null,
  ].filter(Boolean);
  const retry = ctx.retry && ctx.retry.id === item.interactionId ? ctx.retry : null;
  return (
    <div className={ending.failed ? "tx-result error" : "tx-result"} data-testid="tx-result">
      {parts.join(" · ")}
      {retry && <RetryTurn team={retry.team} name={retry.name} />}
    </div>
  );
}

/** A call's permission answer, on its row: allowed, denied (with why), waiting, withdrawn. */
function PermissionBadge({ decision, message }: { decision: PermissionDecision; message: string | null }) {
  return (
    <span className={`badge perm-${decision}`} data-testid="tx-permission" data-decision={decision} title={message ?? undefined}>
      {DECISION_LABEL[decision]}
    </span>
  );
}

/** One tool call: its name, what it does (Bash as `$ command`), its permission badge; opened, its diff or input and its output. */
function ToolRow({ item, ctx }: { item: Extract<Item, { kind: "tool" }>; ctx: RowContext }) {
  const state = item.result === null ? "running" : item.result.isError ? "error" : "done";
  const input = relativeInput(item.input, ctx.rel);
  const command = item.name === "Bash" && typeof (input as { command?: unknown })?.command === "string" ? (input as { command: string }).command : null;
  const edit = toolEdit(item.name, input);
  const denied = item.permission?.decision === "denied" ? item.permission.message : null;
  return (
    <details className={`tx-tool ${state}${item.nested ? " nested" : ""}`} data-testid="tx-tool" data-decision={item.permission?.decision}>
      <summary>
        <span className="tx-tool-name">{item.name}</span>{" "}
        <code className="tx-tool-what">{command !== null ? `$ ${summarizeInput({ command }, 160)}` : summarizeInput(input, 160)}</code>{" "}
        {item.permission && <PermissionBadge {...item.permission} />}
        {denied && <span className="tx-denied">{denied}</span>}
        {state === "running" && item.permission?.decision !== "pending" && <span className="muted"> running…</span>}
      </summary>
      {edit ? (
        <div className="tx-edit" data-testid="tx-edit">
          <FileDiff file={edit} />
        </div>
      ) : command !== null ? (
        <pre className="tx-shell">$ {command}</pre>
      ) : (
        <JsonView value={input} label={`input of ${item.name}`} />
      )}
      {item.result && <Folded className={item.result.isError ? "tx-output error" : "tx-output"} text={ctx.rel(item.result.text) || "(no output)"} />}
    </details>
  );
}

/** One row of the transcript; tool calls, their results and raw stream lines are folded. */
export function TranscriptRow({ item, ctx }: { item: Item; ctx: RowContext }) {
  switch (item.kind) {
    case "prompt":
      return (
        <div className="tx-prompt" data-testid="tx-prompt">
          <span className="tx-who">prompt</span>
          <div className="tx-body">{item.text}</div>
        </div>
      );
    case "text":
      return (
        <div className={item.nested ? "tx-text nested" : "tx-text"} data-testid="tx-text">
          <Markdown text={item.text} />
        </div>
      );
    case "tool":
      return <ToolRow item={item} ctx={ctx} />;
    case "tool_result":
      return (
        <details className="tx-tool">
          <summary>tool result{item.isError ? " (error)" : ""}</summary>
          <Folded className={item.isError ? "tx-output error" : "tx-output"} text={ctx.rel(item.text)} />
        </details>
      );
    case "permission": {
      // A request whose call is not in the transcript (yet): its own line.
      const what = summarizeInput(relativeInput(item.input, ctx.rel));
      return (
        <div className={`tx-perm ${item.decision}`} data-testid="tx-permission-row" data-decision={item.decision}>
          <span className="muted">permission</span> <strong>{item.toolName}</strong>
          {what && (
            <>
              {" "}
              <code>{what}</code>
            </>
          )}{" "}
          <PermissionBadge decision={item.decision} message={item.message} />
          {item.message && <span className="tx-denied">{item.message}</span>}
        </div>
      );
    }
    case "result":
      return <ResultFooter item={item} interaction={item.interactionId === null ? undefined : ctx.interactions.get(item.interactionId)} ctx={ctx} />;
    case "note":
      return <div className="tx-note">{item.text}</div>;
    case "plan":
      return (
        <div className="tx-plan" data-testid="tx-plan">
          <span className="tx-who">plan</span>
          <ul>
            {item.entries.map((entry, i) => (
              <li key={i} data-status={entry.status}>
                <span aria-label={entry.status}>{PLAN_MARK[entry.status] ?? "○"}</span> {entry.content}
              </li>
            ))}
          </ul>
        </div>
      );
    case "raw":
      return (
        <details className="tx-raw">
          <summary>{item.label}</summary>
          <JsonView value={item.payload} label={item.label} />
        </details>
      );
  }
}
