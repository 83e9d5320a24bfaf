"use client";

import { useState } from "react";
import type { PipelineView } from "@/lib/api/pipelines.ts";
import { PipelineEditor, type Draft } from "./PipelineEditor.tsx";
import { useDraftCheck } from "./use-draft-check.ts";

/** The pipeline page's editor: its rules, prefilled, checked as typed and saved in place of the old ones. */
export function EditRules({ team, pipeline, onDone }: { team: string; pipeline: PipelineView; onDone: () => void }) {
  const [draft, setDraft] = useState<Draft>({ id: pipeline.id, rules: pipeline.rules });
  const check = useDraftCheck(team, draft, false);
  return (
    <div className="stack">
      <PipelineEditor team={team} draft={draft} onChange={setDraft} issues={check.issues} checking={check.checking} editing={pipeline.id} onDone={onDone} />
      {check.error && <p className="form-error">Could not check the rules: {check.error.message}</p>}
    </div>
  );
}
