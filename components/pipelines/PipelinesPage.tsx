"use client";

import { useState } from "react";
import { usePipelines } from "@/lib/queries/pipelines.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { DryRunPanel } from "./DryRunPanel.tsx";
import { EMPTY_DRAFT, PipelineEditor, type Draft } from "./PipelineEditor.tsx";
import { PipelineTable } from "./PipelineTable.tsx";
import { useDraftCheck } from "./use-draft-check.ts";

/** The team's pipelines, an editor for a new one (checked by the hub as it is typed) and a dry run of its rules. */
export function PipelinesPage() {
  const { team } = useTeam();
  const list = usePipelines(team);
  const [draft, setDraft] = useState<Draft>(EMPTY_DRAFT);
  const { sent, issues, checking, error } = useDraftCheck(team, draft, true);

  return (
    <div className="stack">
      <h1 className="page-title">Pipelines</h1>
      <Card title="Pipelines" testId="pipelines">
        <ListState
          loading={list.isLoading}
          error={list.error}
          empty={(list.data?.length ?? 0) === 0}
          hint={
            <>
              No pipelines in this team. Write one below, or with <code>teamhub pipeline-create …</code>
            </>
          }
        />
        {list.data && list.data.length > 0 && <PipelineTable team={team} items={list.data} />}
      </Card>
      <div className="split">
        <Card title="New pipeline" testId="pipeline-editor">
          <PipelineEditor team={team} draft={draft} onChange={setDraft} issues={issues} checking={checking} />
          {error && <p className="form-error">Could not check the rules: {error.message}</p>}
        </Card>
        <Card title="Dry run" testId="pipeline-dry-run">
          <DryRunPanel team={team} rules={sent.rules} />
        </Card>
      </div>
    </div>
  );
}
