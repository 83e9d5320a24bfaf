"use client";

import Link from "next/link";
import type { CompareView } from "@/lib/api/worktrees.ts";
import { useRunVersions } from "@/lib/queries/worktrees.ts";
import { ListState } from "../ui/Card.tsx";
import { BranchName } from "./BranchName.tsx";

/** Beside two runs' code: the artifact versions each run published, matched by the branch their code was on. */
export function RunArtifacts({ team, sides }: { team: string; sides: [CompareView["a"], CompareView["b"]] }) {
  const versions = useRunVersions(team, [...new Set(sides.map((s) => s.session))]);
  if (!versions.data) return <ListState loading={versions.isLoading} error={versions.error} empty={false} hint="" />;
  return (
    <div className="run-artifacts">
      {sides.map((side, i) => {
        const mine = versions.data.filter((v) => v.code?.branch === side.branch);
        return (
          <section key={side.branch} aria-label={`artifacts of ${side.branch}`} data-testid={`run-artifacts-${i === 0 ? "a" : "b"}`}>
            <h3>
              <span className="compare-label">{i === 0 ? "a" : "b"}</span> <BranchName name={side.branch} />
            </h3>
            {mine.length === 0 ? (
              <p className="empty">No artifact version was published from this branch.</p>
            ) : (
              <ul className="plain">
                {mine.map((v) => (
                  <li key={`${v.artifactId}@${v.version}`}>
                    <Link href={`/artifacts/${encodeURIComponent(v.artifactId)}?version=${v.version}`} className="mono">
                      {v.artifactId}@v{v.version}
                    </Link>{" "}
                    <span className="muted">{v.summary || v.type}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
