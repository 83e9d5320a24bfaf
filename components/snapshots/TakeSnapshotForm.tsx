"use client";

import { useState } from "react";
import { issuesAt, issuesOf } from "@/lib/field-issues.ts";
import { useSnapshotActions } from "@/lib/queries/snapshots.ts";

/** Label (and optionally an id) → a snapshot of the team's coordination state. */
export function TakeSnapshotForm({ team, onTaken }: { team: string; onTaken: (id: string) => void }) {
  const [label, setLabel] = useState("");
  const [id, setId] = useState("");
  const { take } = useSnapshotActions(team);
  const issues = issuesOf(take.error);
  const problem = (field: string) =>
    issuesAt(issues, field)
      .map((i) => i.message)
      .join("; ");
  return (
    <form
      className="row take-snapshot"
      aria-label="take a snapshot"
      onSubmit={(e) => {
        e.preventDefault();
        take.mutate(
          { label, id: id.trim() === "" ? undefined : id.trim() },
          {
            onSuccess: (s) => {
              setLabel("");
              setId("");
              onTaken(s.id);
            },
          },
        );
      }}
    >
      <label className="field">
        <span>label</span>
        <input
          value={label}
          onChange={(e) => {
            take.reset();
            setLabel(e.target.value);
          }}
          placeholder="before the auth rewrite"
          aria-invalid={problem("label") !== ""}
        />
        {problem("label") && <span className="error">{problem("label")}</span>}
      </label>
      <label className="field">
        <span>id (optional)</span>
        <input
          value={id}
          onChange={(e) => {
            take.reset();
            setId(e.target.value);
          }}
          placeholder="generated"
          className="mono"
          aria-invalid={problem("id") !== ""}
        />
        {problem("id") && <span className="error">{problem("id")}</span>}
      </label>
      <button type="submit" className="primary" disabled={take.isPending}>
        Take snapshot
      </button>
      {take.error && issues.every((i) => i.field !== "id" && i.field !== "label") && <span className="error">{take.error.message}</span>}
    </form>
  );
}
