import type { ReactNode } from "react";
import type { DiffEntity, DiffKindName, FieldChanges, KindDiff } from "@/lib/api/snapshots.ts";
import { JsonDiff } from "../ui/JsonDiff.tsx";
import { ArtifactDataDiff } from "./ArtifactDataDiff.tsx";
import { changeSummary, entitySummary, sides } from "./diff-summary.ts";

const TITLES: Record<DiffKindName, string> = { contracts: "Contracts", artifacts: "Artifacts (current versions)", pipelines: "Pipelines", roster: "Roster" };
const MARK = { added: "+", removed: "−", changed: "~" } as const;

export const NO_DIFFERENCES = "no differences";
export const countLine = (d: KindDiff) =>
  [d.changed.length && `${d.changed.length} changed`, d.added.length && `${d.added.length} added`, d.removed.length && `${d.removed.length} removed`]
    .filter(Boolean)
    .join(", ") || NO_DIFFERENCES;

function Entity({
  kind,
  change,
  id,
  summary,
  labels,
  children,
}: {
  kind: DiffKindName;
  change: keyof typeof MARK;
  id: string;
  summary: string;
  labels: [string, string];
  children: ReactNode;
}) {
  return (
    <details
      className={`diff-entity ${change}`}
      data-change={change}
      data-kind={kind}
      data-id={id}
      open={change === "changed"}
      aria-label={`${id} ${change} (${labels[0]} → ${labels[1]})`}
    >
      <summary>
        <span className="mark" aria-hidden="true">
          {MARK[change]}
        </span>{" "}
        <code>{id}</code> <span className="muted">{change}</span> <span className="summary-text">{summary}</span>
      </summary>
      {children}
    </details>
  );
}

const withoutId = ({ id: _id, ...rest }: DiffEntity) => rest;

/** An artifact whose current version moved from one version to another (not archived, not rolled back to none). */
function versionMove(kind: DiffKindName, fields: FieldChanges): [number, number] | null {
  const v = fields.version;
  return kind === "artifacts" && v && typeof v.old === "number" && typeof v.new === "number" ? [v.old, v.new] : null;
}

/**
 * One kind of entity, side by side: A on the left, B on the right. Changed entities open with
 * their field-level rows; added and removed ones fold their fields away behind a summary.
 */
export function DiffKind({ team, kind, diff, labels }: { team: string; kind: DiffKindName; diff: KindDiff; labels: [string, string] }) {
  return (
    <section className="diff-kind" aria-labelledby={`diff-${kind}`} data-testid={`diff-${kind}`}>
      <h3 id={`diff-${kind}`}>
        {TITLES[kind]} <span className="muted">{countLine(diff)}</span>
      </h3>
      {diff.changed.map((c) => {
        const move = versionMove(kind, c.fields);
        return (
          <Entity key={c.id} kind={kind} change="changed" id={c.id} summary={changeSummary(kind, c.fields)} labels={labels}>
            <JsonDiff before={sides(c.fields)[0]} after={sides(c.fields)[1]} onlyChanges labels={labels} />
            {move && <ArtifactDataDiff team={team} id={c.id} from={move[0]} to={move[1]} />}
          </Entity>
        );
      })}
      {diff.added.map((e) => (
        <Entity key={e.id} kind={kind} change="added" id={e.id} summary={entitySummary(kind, e)} labels={labels}>
          <JsonDiff before={undefined} after={withoutId(e)} labels={labels} />
        </Entity>
      ))}
      {diff.removed.map((e) => (
        <Entity key={e.id} kind={kind} change="removed" id={e.id} summary={entitySummary(kind, e)} labels={labels}>
          <JsonDiff before={withoutId(e)} after={undefined} labels={labels} />
        </Entity>
      ))}
    </section>
  );
}
