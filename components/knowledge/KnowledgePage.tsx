"use client";

import { useState } from "react";
import { WISDOM_KINDS, type ExplorationView, type WisdomKind } from "@/lib/api/knowledge.ts";
import { useExplorations, useTeamState, useWisdom } from "@/lib/queries/knowledge.ts";
import { RefLink } from "../artifacts/ArtifactLineage.tsx";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import type { SortValue } from "../ui/sort.ts";
import { useSort } from "../ui/useSort.tsx";
import { When } from "../ui/When.tsx";
import { TeamStateList } from "./TeamStateCard.tsx";
import { WisdomList } from "./WisdomList.tsx";

type Filter = WisdomKind | "all";

type Column = "angle" | "result" | "createdBy" | "ref";
const refText = (r: NonNullable<ExplorationView["ref"]>) => `${r.artifactId}@v${r.version}`;
const valueOf = (e: ExplorationView, key: Column): SortValue => (key === "ref" ? e.ref && refText(e.ref) : e[key]);

/** The exploration cache, in the hub's order until a column header is clicked. */
function ExplorationTable({ team, items }: { team: string; items: ExplorationView[] }) {
  const { rows, header } = useSort<ExplorationView, Column>(items, valueOf);
  return (
    <table className="explorations sortable">
      <thead>
        <tr>
          {header("Angle", "angle")}
          {header("Result", "result")}
          {header("Created by", "createdBy")}
          {header("Ref", "ref")}
        </tr>
      </thead>
      <tbody>
        {rows.map((e) => (
          <tr key={e.angle} data-testid={`angle-${e.angle}`}>
            <td className="mono">{e.angle}</td>
            <td>{e.result}</td>
            <td>
              {e.createdBy}{" "}
              <span className="muted">
                · <When at={e.createdAt} />
              </span>
              {e.revision > 1 && <span className="muted"> · revised {e.revision - 1}×</span>}
            </td>
            <td className="mono">{e.ref ? <RefLink team={team} refText={refText(e.ref)} /> : "—"}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** What the team knows (docs/knowledge.md): the team state per member, the wisdom journal by kind, the exploration cache. */
export function KnowledgePage() {
  const { team } = useTeam();
  const [kind, setKind] = useState<Filter>("all");
  const state = useTeamState(team);
  const wisdom = useWisdom(team, kind);
  const cache = useExplorations(team);
  return (
    <div className="stack">
      <h1 className="page-title">Knowledge</h1>
      <Card title="Team state" testId="team-state" wide>
        <ListState
          loading={state.isLoading}
          error={state.error}
          empty={(state.data?.members.length ?? 0) === 0}
          hint={
            <>
              No state updates yet. Members post them with <code>team_state_update</code> (or <code>teamhub state-update</code>) after each piece of work.
            </>
          }
        />
        {state.data && state.data.members.length > 0 && <TeamStateList team={team} members={state.data.members} />}
      </Card>
      <Card title="Wisdom" testId="wisdom" wide>
        <div className="wisdom-filter" role="group" aria-label="Kind">
          {(["all", ...WISDOM_KINDS] as const).map((k) => (
            <button key={k} type="button" className={kind === k ? "chip active" : "chip"} aria-pressed={kind === k} onClick={() => setKind(k)}>
              {k}
            </button>
          ))}
        </div>
        <ListState
          loading={wisdom.isLoading}
          error={wisdom.error}
          empty={(wisdom.data?.items.length ?? 0) === 0}
          hint={kind === "all" ? "Nothing learnt, decided, agreed or run into yet." : `No ${kind} entries yet.`}
        />
        {wisdom.data && wisdom.data.items.length > 0 && <WisdomList items={wisdom.data.items} />}
      </Card>
      <Card title="Exploration cache" testId="explorations" wide>
        <ListState
          loading={cache.isLoading}
          error={cache.error}
          empty={(cache.data?.items.length ?? 0) === 0}
          hint={
            <>
              No angle explored yet. Members look one up with <code>exploration_lookup</code> before researching it.
            </>
          }
        />
        {cache.data && cache.data.items.length > 0 && <ExplorationTable team={team} items={cache.data.items} />}
      </Card>
    </div>
  );
}
