"use client";

import type { PipelineView } from "@/lib/api/pipelines.ts";
import { usePipelineActions } from "@/lib/queries/pipelines.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";

/** Pause or resume, and delete (asked first); the hub's refusal is shown under the buttons. */
export function PipelineControls({ team, pipeline, onDeleted }: { team: string; pipeline: Pick<PipelineView, "id" | "status">; onDeleted?: () => void }) {
  const { setStatus, remove } = usePipelineActions(team);
  const to = pipeline.status === "active" ? "pause" : "resume";
  const error = setStatus.error ?? remove.error;
  return (
    <div>
      <div className="row">
        <button type="button" onClick={() => setStatus.mutate({ id: pipeline.id, to })} disabled={setStatus.isPending} aria-label={`${to} ${pipeline.id}`}>
          {to === "pause" ? "Pause" : "Resume"}
        </button>
        <ConfirmButton
          label="Delete"
          danger
          disabled={remove.isPending}
          question={
            <>
              Delete pipeline <code>{pipeline.id}</code>? Its rules stop running at once. The execution log is kept, and rolling back to a snapshot that has the
              pipeline brings it back.
            </>
          }
          onConfirm={() => remove.mutate(pipeline.id, { onSuccess: onDeleted })}
        />
      </div>
      {error && <div className="error">{error.message}</div>}
    </div>
  );
}
