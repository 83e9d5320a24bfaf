import { diffJson, type Change } from "@/lib/json-diff.ts";

const show = (v: unknown) => (v === undefined ? "" : JSON.stringify(v));
const MARK: Record<Change["kind"], string> = { added: "+", removed: "−", changed: "~", same: "" };

/**
 * Two JSON values side by side, one row per leaf field, with added, removed and changed fields
 * highlighted. `onlyChanges` hides the unchanged ones.
 */
export function JsonDiff({
  before,
  after,
  onlyChanges = false,
  labels = ["before", "after"],
}: {
  before: unknown;
  after: unknown;
  onlyChanges?: boolean;
  labels?: [string, string];
}) {
  const rows = diffJson(before, after).filter((c) => !onlyChanges || c.kind !== "same");
  if (rows.length === 0) return <p className="empty">No differences.</p>;
  return (
    <table className="json-diff" aria-label={`differences between ${labels[0]} and ${labels[1]}`}>
      <thead>
        <tr>
          <th aria-label="change" />
          <th>field</th>
          <th>{labels[0]}</th>
          <th>{labels[1]}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((c) => (
          <tr key={c.path} className={c.kind} data-change={c.kind} data-path={c.path}>
            <td aria-label={c.kind}>{MARK[c.kind]}</td>
            <td>{c.path || "(value)"}</td>
            <td>{show(c.before)}</td>
            <td>{show(c.after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
