import { ContractStatus } from "@/lib/api/contracts.ts";

/** What the colours and lines mean. */
export function Legend() {
  return (
    <section className="canvas-legend" aria-label="legend">
      <h2>Legend</h2>
      <ul className="plain">
        {ContractStatus.options.map((s) => (
          <li key={s}>
            <span className={`swatch ${s}`} /> contract {s.replace("_", " ")}
          </li>
        ))}
        <li>
          <span className="swatch artifact" /> artifact
        </li>
        <li>
          <span className="swatch stale" /> artifact <span className="badge stale">stale</span>
        </li>
        <li>
          <span className="swatch group" /> collapsed group
        </li>
        <li>
          <span className="line depends_on" /> depends on
        </li>
        <li>
          <span className="line needs_artifact" /> needs artifact
        </li>
        <li>
          <span className="line output" /> output
        </li>
        <li>
          <span className="line derived_from" /> derived from
        </li>
      </ul>
      <p className="hint muted">Failed and stale boxes are striped as well as coloured.</p>
      <p className="hint muted">Drag from a node&apos;s lower handle to a contract&apos;s upper one: that contract then depends on it.</p>
    </section>
  );
}
