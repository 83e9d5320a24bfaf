"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { keys } from "@/lib/queries/keys.ts";
import { usePipeline } from "@/lib/queries/pipelines.ts";
import { useLiveEvents } from "../shell/LiveProvider.tsx";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { EditRules } from "./EditRules.tsx";
import { ExecutionLog } from "./ExecutionLog.tsx";
import { PipelineControls } from "./PipelineControls.tsx";
import { executionSummary } from "./PipelineTable.tsx";
import { RuleList } from "./RuleList.tsx";

// The runner records an execution just after the event that fired it commits; a false condition
// is recorded without an event of its own, so the log is read again once the runner had time.
const RUNNER_GRACE_MS = 750;

/** A pipeline's rules and its execution log, newest first, paged back with the log's cursor. */
export function PipelineDetail({ id }: { id: string }) {
  const { team } = useTeam();
  const router = useRouter();
  const qc = useQueryClient();
  // The cursors of the pages walked back through; the newest page has none.
  const [cursors, setCursors] = useState<number[]>([]);
  const [editing, setEditing] = useState(false);
  const q = usePipeline(team, id, cursors.at(-1));
  useLiveEvents((e) => {
    if (e.teamId === team) setTimeout(() => void qc.invalidateQueries({ queryKey: keys.pipeline(team, id) }), RUNNER_GRACE_MS);
  });
  const p = q.data;

  return (
    <div className="stack">
      <div className="row">
        <Link href="/pipelines">← Pipelines</Link>
      </div>
      <div className="row page-head">
        <h1 className="page-title mono">{id}</h1>
        {p && <StatusBadge status={p.status} />}
        {p && <PipelineControls team={team} pipeline={p} onDeleted={() => router.push("/pipelines")} />}
      </div>
      <ListState loading={q.isLoading} error={q.error} empty={false} hint="" />
      {p && (
        <>
          <p className="muted">
            Created by {p.createdBy} on {p.createdAt.toLocaleString()}. {executionSummary(p.executions) || "No executions yet."}
          </p>
          <Card title={`Rules (${p.rules.length})`} testId="pipeline-rules">
            {editing ? (
              <EditRules team={team} pipeline={p} onDone={() => setEditing(false)} />
            ) : (
              <>
                <RuleList rules={p.rules} />
                <div>
                  <button type="button" onClick={() => setEditing(true)} data-testid="edit-rules">
                    Edit rules
                  </button>
                </div>
              </>
            )}
          </Card>
          <Card title="Execution log" testId="execution-log">
            <ListState
              loading={false}
              error={null}
              empty={p.log.length === 0}
              hint="Nothing has run yet: rules run on events after the pipeline was created, while it is active."
            />
            {p.log.length > 0 && <ExecutionLog items={p.log} />}
            {(cursors.length > 0 || p.nextCursor !== null) && (
              <div className="toolbar pager">
                <button type="button" onClick={() => setCursors((c) => c.slice(0, -1))} disabled={cursors.length === 0}>
                  Newer
                </button>
                <button type="button" onClick={() => p.nextCursor !== null && setCursors((c) => [...c, p.nextCursor!])} disabled={p.nextCursor === null}>
                  Older
                </button>
                <span className="muted">page {cursors.length + 1}</span>
              </div>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
