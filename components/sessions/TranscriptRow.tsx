import { duration, usd } from "@/lib/format.ts";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { FileDiff } from "../code/FileDiff.tsx";
import { JsonView } from "../ui/JsonView.tsx";
import { Folded } from "./Folded.tsx";
import { Markdown } from "./Markdown.tsx";
import { toolEdit } from "./tool-edits.ts";
import { summarizeInput, turnEnding, type Item } from "./transcript-model.ts";

const DECISION_LABEL = { pending: "waiting for a decision", allowed: "allowed", denied: "denied", withdrawn: "withdrawn" } as const;

function ResultFooter({ item, interaction }: { item: Extract<Item, { kind: "result" }>; interaction: InteractionView | undefined }) {
  const ending = turnEnding(item, interaction);
  const parts = [
    ending.text,
    interaction ? usd(interaction.costUsd) : null,
    item.turns !== null ? `${item.turns} model turn${item.turns === 1 ? "" : "s"}` : null,
    item.durationMs !== null ? duration(item.durationMs) : null,
  ].filter(Boolean);
  return (
    <div className={ending.failed ? "tx-result error" : "tx-result"} data-testid="tx-result">
      {parts.join(" · ")}
    </div>
  );
}

/** One row of the transcript; tool calls, their results and raw stream lines are folded. */
export function TranscriptRow({ item, interactions }: { item: Item; interactions: Map<number, InteractionView> }) {
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
    case "tool": {
      const state = item.result === null ? "running" : item.result.isError ? "error" : "done";
      const edit = toolEdit(item.name, item.input);
      return (
        <details className={`tx-tool ${state}${item.nested ? " nested" : ""}`} data-testid="tx-tool">
          <summary>
            <span className="tx-tool-name">{item.name}</span> <code>{summarizeInput(item.input)}</code>{" "}
            <span className="muted">{state === "running" ? "…" : state}</span>
          </summary>
          {edit ? (
            <div className="tx-edit" data-testid="tx-edit">
              <FileDiff file={edit} />
            </div>
          ) : (
            <JsonView value={item.input} label={`input of ${item.name}`} />
          )}
          {item.result && <Folded className={item.result.isError ? "tx-output error" : "tx-output"} text={item.result.text || "(no output)"} />}
        </details>
      );
    }
    case "tool_result":
      return (
        <details className="tx-tool">
          <summary>tool result{item.isError ? " (error)" : ""}</summary>
          <Folded className={item.isError ? "tx-output error" : "tx-output"} text={item.text} />
        </details>
      );
    case "permission": {
      const what = summarizeInput(item.input);
      return (
        <div className={`tx-perm ${item.decision}`} data-testid="tx-permission" data-decision={item.decision}>
          <span className="muted">permission</span> <strong>{item.toolName}</strong>
          {what && (
            <>
              {" "}
              <code>{what}</code>
            </>
          )}{" "}
          — <strong>{DECISION_LABEL[item.decision]}</strong>
          {item.message && <>: {item.message}</>}
        </div>
      );
    }
    case "result":
      return <ResultFooter item={item} interaction={item.interactionId === null ? undefined : interactions.get(item.interactionId)} />;
    case "note":
      return <div className="tx-note">{item.text}</div>;
    case "raw":
      return (
        <details className="tx-raw">
          <summary>{item.label}</summary>
          <JsonView value={item.payload} label={item.label} />
        </details>
      );
  }
}
