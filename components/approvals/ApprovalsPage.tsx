"use client";

import Link from "next/link";
import { useState } from "react";
import type { ApprovalView, DecideApprovalsResult } from "@/lib/api/sessions.ts";
import { clock } from "@/lib/format.ts";
import { useApprovals, useDecideMany, usePendingCount } from "@/lib/queries/approvals.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { DecideButtons } from "./DecideButtons.tsx";
import { summarizeInput } from "../sessions/transcript-model.ts";
import { useNow } from "../sessions/useNow.ts";
import { Card, ListState } from "../ui/Card.tsx";
import { When } from "../ui/When.tsx";
import { statusLabel } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";

type Column = "id" | "session" | "tool" | "what" | "reason" | "expires" | "status" | "by" | "decided" | "note";

/** One sort key per column of either table: the queue and the decided list show the same requests. */
const valueOf = (a: ApprovalView, key: Column): SortValue => {
  switch (key) {
    case "id":
      return a.id;
    case "session":
      return a.session;
    case "tool":
      return a.toolName;
    case "what":
      return a.inputHidden ? null : summarizeInput(a.input);
    case "reason":
      return a.reason;
    case "expires":
      return a.expiresAt.getTime();
    case "status":
      return a.status;
    case "by":
      return a.decidedBy;
    case "decided":
      return a.decidedAt?.getTime() ?? null;
    case "note":
      return a.note;
  }
};

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;

/** What a bulk answer did, in one line: how many were decided, and which had been settled before it arrived. */
function outcome(decision: "allow" | "deny", r: DecideApprovalsResult): string {
  const done = `${decision === "allow" ? "Allowed" : "Denied"} ${plural(r.decided.length, "request")}`;
  if (r.skipped.length === 0) return `${done}.`;
  return `${done}; ${r.skipped.map((s) => `#${s.id} was already ${statusLabel(s.status)}`).join(", ")}.`;
}

function PendingTable({
  team,
  items,
  selected,
  toggle,
}: {
  team: string;
  items: ApprovalView[];
  selected: Set<number>;
  toggle: (ids: number[], on: boolean) => void;
}) {
  const now = useNow();
  const all = items.length > 0 && items.every((a) => selected.has(a.id));
  const { rows, header } = useSort<ApprovalView, Column>(items, valueOf);
  return (
    <div className="table-scroll">
      <table className="compact approvals-queue sortable stack-on-phone">
        <thead>
          <tr>
            <th>
              <input
                type="checkbox"
                aria-label="select all"
                checked={all}
                onChange={(e) =>
                  toggle(
                    items.map((a) => a.id),
                    e.target.checked,
                  )
                }
              />
            </th>
            {header("#", "id", true)}
            {header("Session", "session")}
            {header("Tool", "tool")}
            {header("What", "what")}
            {header("Why asked", "reason")}
            {header("Denied automatically in", "expires", true)}
            <th>Answer</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id} data-testid={`queued-${a.id}`} data-alert-key={`approval:${a.id}`}>
              <td>
                <input type="checkbox" aria-label={`select request ${a.id}`} checked={selected.has(a.id)} onChange={(e) => toggle([a.id], e.target.checked)} />
              </td>
              <td className="muted mono num" data-label="#">
                {a.id}
              </td>
              <td>
                <Link href={`/sessions/${encodeURIComponent(a.session)}`}>{a.session}</Link>
              </td>
              <td>
                <strong>{a.toolName}</strong>
              </td>
              <td className="approval-what">{a.inputHidden ? <span className="muted">hidden</span> : <code>{summarizeInput(a.input)}</code>}</td>
              <td className="muted">{a.reason}</td>
              <td className="muted num" data-label="denied automatically in">
                {clock(a.expiresAt.getTime() - now)}
              </td>
              <td className="approval-answer">
                <DecideButtons team={team} session={a.session} approvalId={a.id} toolName={a.toolName} input={a.input} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Requests answered (or timed out), newest first until a column header is clicked. */
function DecidedTable({ items }: { items: ApprovalView[] }) {
  const { rows, header } = useSort<ApprovalView, Column>(items, valueOf);
  return (
    <div className="table-scroll">
      <table className="compact sortable" data-testid="approvals-decided-table">
        <thead>
          <tr>
            {header("#", "id", true)}
            {header("Session", "session")}
            {header("Tool", "tool")}
            {header("Answer", "status")}
            {header("By", "by")}
            {header("When", "decided")}
            {header("Note", "note")}
          </tr>
        </thead>
        <tbody>
          {rows.map((a) => (
            <tr key={a.id}>
              <td className="muted mono num">{a.id}</td>
              <td>
                <Link href={`/sessions/${encodeURIComponent(a.session)}`}>{a.session}</Link>
              </td>
              <td>{a.toolName}</td>
              <td>
                <span className={`badge approval-${a.status}`}>{statusLabel(a.status)}</span>
              </td>
              <td>{a.decidedBy ?? "—"}</td>
              <td className="muted">{a.decidedAt ? <When at={a.decidedAt} /> : "—"}</td>
              <td className="muted">{a.note ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Every pending permission request of the team in one queue: select some or all, and allow or deny them in one
 * transaction (`POST /api/approvals/decide`). Requests settled meanwhile are reported, not decided again.
 */
export function ApprovalsPage() {
  const { team } = useTeam();
  const pending = useApprovals(team, "pending");
  const waiting = usePendingCount(team).data?.count;
  const recent = useApprovals(team);
  const decide = useDecideMany(team);
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [note, setNote] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const items = pending.data ?? [];
  // A request that left the queue (decided elsewhere, timed out) is no longer selected.
  const selected = new Set(items.filter((a) => picked.has(a.id)).map((a) => a.id));
  const toggle = (ids: number[], on: boolean) =>
    setPicked((old) => {
      const next = new Set(old);
      for (const id of ids) {
        if (on) next.add(id);
        else next.delete(id);
      }
      return next;
    });
  const act = (decision: "allow" | "deny") =>
    decide.mutate(
      { ids: [...selected], decision, note: note.trim() || undefined },
      {
        onSuccess: (r) => {
          setDone(outcome(decision, r));
          setPicked(new Set());
          setNote("");
        },
      },
    );
  const decided = (recent.data ?? []).filter((a) => a.status !== "pending").slice(0, 50);
  return (
    <div className="stack">
      <Card title={`Waiting for a decision (${Math.max(waiting ?? 0, items.length)})`} testId="approvals-queue" wide>
        <ListState loading={pending.isLoading} error={pending.error} empty={items.length === 0} hint="No permission request is waiting." />
        {items.length > 0 && (
          <>
            <div className="row">
              <input
                aria-label="note for the selected requests"
                placeholder="note (optional, sent with each answer)"
                value={note}
                onChange={(e) => setNote(e.target.value)}
                maxLength={2000}
                className="grow"
              />
              <button type="button" className="primary" disabled={selected.size === 0 || decide.isPending} onClick={() => act("allow")}>
                Allow selected ({selected.size})
              </button>
              <button type="button" className="danger" disabled={selected.size === 0 || decide.isPending} onClick={() => act("deny")}>
                Deny selected ({selected.size})
              </button>
            </div>
            {waiting !== undefined && waiting > items.length && (
              <p className="muted" data-testid="approvals-page-note">
                Showing the newest {items.length} of {waiting}; the others appear here as these are answered.
              </p>
            )}
            <PendingTable team={team} items={items} selected={selected} toggle={toggle} />
          </>
        )}
        {done && (
          <p role="status" data-testid="approvals-outcome">
            {done}
          </p>
        )}
        {decide.error && (
          <p className="form-error" role="alert">
            {decide.error.message}
          </p>
        )}
      </Card>
      <Card title="Decided recently" testId="approvals-decided" wide>
        <ListState loading={recent.isLoading} error={recent.error} empty={decided.length === 0} hint="Nothing decided yet." />
        {decided.length > 0 && <DecidedTable items={decided} />}
      </Card>
    </div>
  );
}
