"use client";

import Link from "next/link";
import { usd } from "@/lib/format.ts";
import { stopReason } from "@/lib/problem-kind.ts";
import { useHubs } from "@/lib/queries/settings.ts";
import type { SessionView } from "@/lib/api/sessions.ts";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import type { SortValue } from "../ui/sort.ts";
import { total, useSort } from "../ui/useSort.tsx";
import { HubName } from "./HubName.tsx";
import { SandboxBadge } from "./SandboxBadge.tsx";
import { SessionProblem } from "./SessionProblem.tsx";
import { When } from "../ui/When.tsx";

type Column = "name" | "kind" | "status" | "hub" | "model" | "cost" | "turns" | "interactions" | "queued" | "approvals" | "updated";

const valueOf = (s: SessionView, key: Column): SortValue => {
  switch (key) {
    case "name":
      return s.name;
    case "kind":
      return s.kind;
    case "status":
      return s.status;
    case "hub":
      return s.hub;
    case "model":
      return `${s.model ?? ""} ${s.runtime}`;
    case "cost":
      return s.costUsd;
    case "turns":
      return s.turns;
    case "interactions":
      return s.interactions;
    case "queued":
      return s.queued;
    case "approvals":
      return s.pendingApprovals;
    case "updated":
      return s.updatedAt.getTime();
  }
};

/**
 * The team's sessions in the hub's order until a column header is clicked, with the totals below. Fixed columns
 * (docs/dashboard.md#tables-and-forms): a long name or model is cut with the whole of it in the tooltip, the runtime under the model; the Hub
 * column shows only where several hubs share the database.
 */
export function SessionTable({ items }: { items: SessionView[] }) {
  const { rows, header } = useSort<SessionView, Column>(items, valueOf);
  const hubs = useHubs({ poll: false }).data;
  const thisHub = hubs?.find((h) => h.self)?.id ?? null;
  const manyHubs = (hubs?.length ?? 1) > 1 || items.some((s) => s.hub !== null && s.hub !== thisHub);
  return (
    <div className="table-scroll">
      <table className="sortable stack-on-phone sessions-table">
        <colgroup>
          <col className="col-name" />
          <col className="col-kind" />
          <col className="col-state" />
          {manyHubs && <col className="col-hub" />}
          <col className="col-model" />
          <col className="col-cost" />
          <col className="col-count" />
          <col className="col-count" />
          <col className="col-count" />
          <col className="col-count" />
          <col className="col-updated" />
        </colgroup>
        <thead>
          <tr>
            {header("Session", "name")}
            {header("Kind", "kind")}
            {header("State", "status")}
            {manyHubs && header("Hub", "hub")}
            {header("Model", "model")}
            {header("Cost", "cost", true)}
            {header("Turns", "turns", true)}
            {header("Msgs", "interactions", true)}
            {header("Queued", "queued", true)}
            {header("Approvals", "approvals", true)}
            {header("Updated", "updated", true)}
          </tr>
        </thead>
        <tbody>
          {rows.map((s) => (
            <tr key={s.name} data-testid={`session-${s.name}`}>
              <td>
                <Link href={`/sessions/${encodeURIComponent(s.name)}`} className="mono clip-line" title={s.name}>
                  {s.name}
                </Link>
              </td>
              <td>{s.kind}</td>
              <td className="state-cell">
                <StatusBadge status={s.status} position={s.queuePosition} problem={s.problem} />
                {s.stalled && <span className="badge stalled">stalled</span>}
                <SandboxBadge sandbox={s.sandbox} />
                <SessionProblem problem={s.problem} clip testId={`problem-${s.name}`} />
                {stopReason(s) && (
                  <div className="muted clip" title={stopReason(s)!} data-testid={`yielded-${s.name}`}>
                    {stopReason(s)}
                  </div>
                )}
              </td>
              {manyHubs && (
                <td data-label="hub" data-testid={`hub-of-${s.name}`}>
                  <HubName hub={s.hub} thisHub={thisHub} />
                </td>
              )}
              <td className="mono">
                <span className="clip-line" title={s.model ?? "the agent's default"}>
                  {s.model ?? "default"}
                </span>
                <span className="clip-line muted" data-testid={`runtime-of-${s.name}`} title="runtime">
                  {s.runtime}
                </span>
              </td>
              <td className="num" data-label="cost">
                {usd(s.costUsd)}
              </td>
              <td className="num" data-label="turns">
                {s.turns}
              </td>
              <td className="num" data-label="interactions" title="interactions: the turns sent to it">
                {s.interactions}
              </td>
              <td className="num" data-label="queued">
                {s.queued || ""}
              </td>
              <td className="num" data-label="approvals">
                {s.pendingApprovals > 0 ? <span className="badge waiting_permission">{s.pendingApprovals}</span> : ""}
              </td>
              <td>
                <When at={s.updatedAt} />
              </td>
            </tr>
          ))}
        </tbody>
        {items.length > 1 && (
          <tfoot>
            <tr data-testid="session-totals">
              <th scope="row" colSpan={manyHubs ? 5 : 4}>
                {items.length} sessions
              </th>
              <td className="num" data-label="cost">
                {usd(total(items, (s) => s.costUsd))}
              </td>
              <td className="num" data-label="turns">
                {total(items, (s) => s.turns)}
              </td>
              <td className="num" data-label="interactions">
                {total(items, (s) => s.interactions)}
              </td>
              <td className="num" data-label="queued">
                {total(items, (s) => s.queued) || ""}
              </td>
              <td className="num" data-label="approvals">
                {total(items, (s) => s.pendingApprovals) || ""}
              </td>
              <td />
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
