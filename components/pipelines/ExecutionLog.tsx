import Link from "next/link";
import type { ExecutionView } from "@/lib/api/pipelines.ts";
import { subjectHref } from "@/lib/subject-link.ts";
import { duration } from "@/lib/format.ts";
import { When } from "../ui/When.tsx";

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

/** One page of executions, newest first. */
export function ExecutionLog({ items }: { items: ExecutionView[] }) {
  return (
    <table className="execution-log stack-on-phone">
      <thead>
        <tr>
          <th>#</th>
          <th>When</th>
          <th>Rule</th>
          <th>Event</th>
          <th>Condition</th>
          <th>Outcome</th>
          <th>Took</th>
          <th>Details</th>
        </tr>
      </thead>
      <tbody>
        {items.map((x) => (
          <tr key={x.id} data-testid="execution" data-outcome={x.outcome}>
            <td className="muted mono" data-label="execution">
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
            <td className="muted" data-label="took">
              {duration(x.durationMs)}
            </td>
            <td className={x.error ? "error" : undefined}>{outcomeText(x)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
