import Link from "next/link";
import type { ExecutionView } from "@/lib/api/pipelines.ts";
import { subjectHref } from "@/lib/subject-link.ts";
import { duration } from "@/lib/format.ts";
import { When } from "../ui/When.tsx";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";

type Column = "id" | "at" | "rule" | "event" | "condition" | "outcome" | "took" | "details";

/** What an execution did or why it did not, in one line: the error, else the action's own report. */
function outcomeText(x: ExecutionView): string {
  if (x.error) return x.error;
  if (x.detail && typeof x.detail === "object") {
    return Object.entries(x.detail as Record<string, unknown>)
      .filter(([k]) => k !== "messageIds")
      .map(([k, v]) => `${k}: ${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join(" · ");
  }
  return "";
}

/** What the event was about, linked to its page where it has one. */
function EventSubject({ subject }: { subject: string }) {
  const href = subjectHref(subject);
  const text = subject.slice(subject.indexOf(":") + 1);
  return (
    <>
      {" "}
      <span className="muted">·</span> {href ? <Link href={href}>{text}</Link> : text}
    </>
  );
}

const valueOf = (x: ExecutionView, key: Column): SortValue => {
  switch (key) {
    case "id":
      return x.id;
    case "at":
      return x.at.getTime();
    case "rule":
      return x.ruleName ?? `rule ${x.rule + 1}`;
    case "event":
      return x.eventId;
    case "condition":
      return x.conditionResult === null ? null : String(x.conditionResult);
    case "outcome":
      return x.outcome;
    case "took":
      return x.durationMs;
    case "details":
      return outcomeText(x) || null;
  }
};

/** One page of executions, newest first until a column header is clicked, with the page's total time below. */
export function ExecutionLog({ items }: { items: ExecutionView[] }) {
  const { rows, header } = useSort<ExecutionView, Column>(items, valueOf);
  return (
    <table className="execution-log sortable stack-on-phone">
      <thead>
        <tr>
          {header("#", "id", true)}
          {header("When", "at")}
          {header("Rule", "rule")}
          {header("Event", "event")}
          {header("Condition", "condition")}
          {header("Outcome", "outcome")}
          {header("Took", "took", true)}
          {header("Details", "details")}
        </tr>
      </thead>
      <tbody>
        {rows.map((x) => (
          <tr key={x.id} data-testid="execution" data-outcome={x.outcome}>
            <td className="muted mono num" data-label="execution">
              {x.id}
            </td>
            <td className="muted">
              <When at={x.at} />
            </td>
            <td>{x.ruleName ?? `rule ${x.rule + 1}`}</td>
            <td className="mono">
              #{x.eventId} {x.eventType ?? ""}
              {x.eventSubject && <EventSubject subject={x.eventSubject} />}
            </td>
            <td data-label="condition">{x.conditionResult === null ? <span className="muted">—</span> : String(x.conditionResult)}</td>
            <td>
              <span className={`badge outcome-${x.outcome}`}>{x.outcome.replace("_", " ")}</span> <span className="muted mono">{x.action}</span>
            </td>
            <td className="muted num" data-label="took">
              {duration(x.durationMs)}
            </td>
            <td className={x.error ? "error" : undefined}>{outcomeText(x)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="execution-log-total">
          <td colSpan={6}>
            {items.length} execution{items.length === 1 ? "" : "s"} on this page
          </td>
          <td className="muted num">{duration(total(items, (x) => x.durationMs))}</td>
          <td />
        </tr>
      </tfoot>
    </table>
  );
}
