"use client";

import { useState } from "react";
import type { VersionView } from "@/lib/api/artifacts.ts";
import { JsonDiff } from "../ui/JsonDiff.tsx";

/**
 * Field-by-field differences between two versions; starts with the selected one against the one
 * before it (the parent keys it by the selected version, so choosing another one starts over).
 */
export function VersionCompare({ versions, selected }: { versions: VersionView[]; selected: number }) {
  // The first version has no predecessor: it is compared with the one after it instead.
  const before = [...versions].reverse().find((x) => x.version < selected)?.version;
  const [from, setFrom] = useState(before ?? selected);
  const [to, setTo] = useState(before !== undefined ? selected : (versions.find((x) => x.version > selected)?.version ?? selected));
  const [onlyChanges, setOnlyChanges] = useState(false);
  if (versions.length < 2) return <p className="empty">Only one version so far: nothing to compare yet.</p>;
  const a = versions.find((v) => v.version === from);
  const b = versions.find((v) => v.version === to);
  const pick = (label: string, value: number, set: (v: number) => void) => (
    <label>
      {label}{" "}
      <select aria-label={`compare ${label}`} value={value} onChange={(e) => set(Number(e.target.value))}>
        {versions.map((v) => (
          <option key={v.version} value={v.version}>
            v{v.version}
            {v.status !== "active" ? ` (${v.status.replace("_", " ")})` : ""}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div data-testid="version-diff">
      <div className="toolbar">
        {pick("from", from, setFrom)}
        {pick("to", to, setTo)}
        <label className="check">
          <input type="checkbox" checked={onlyChanges} onChange={(e) => setOnlyChanges(e.target.checked)} /> only changed fields
        </label>
      </div>
      {a && b && <JsonDiff before={a.data} after={b.data} onlyChanges={onlyChanges} labels={[`v${a.version}`, `v${b.version}`]} />}
    </div>
  );
}
