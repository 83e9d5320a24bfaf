"use client";

import Link from "next/link";
import { useEffect, useRef, useState } from "react";
import { CURRENT, type RewindSummary } from "@/lib/api/snapshots.ts";
import { useSnapshots } from "@/lib/queries/snapshots.ts";
import { compareHref } from "../code/links.ts";
import { useTeam } from "../shell/TeamProvider.tsx";
import { Card, ListState } from "../ui/Card.tsx";
import { DiffViewer, type DiffSides } from "./DiffViewer.tsx";
import { ReplayEditor } from "./ReplayEditor.tsx";
import { RewindResult } from "./RewindResult.tsx";
import { SnapshotTable } from "./SnapshotTable.tsx";
import { TakeSnapshotForm } from "./TakeSnapshotForm.tsx";

/** Take, list, roll back to and replay snapshots, and compare any two states of the team. */
export function SnapshotsPage() {
  const { team } = useTeam();
  // Cursors of the pages walked back through; the newest page has none.
  const [cursors, setCursors] = useState<number[]>([]);
  const list = useSnapshots(team, cursors.at(-1));
  const items = list.data?.items ?? [];
  const [picked, setPicked] = useState<DiffSides | null>(null);
  const [replaying, setReplaying] = useState<string | null>(null);
  const [rewound, setRewound] = useState<{ what: "rollback" | "replay"; summary: RewindSummary } | null>(null);
  const diffCard = useRef<HTMLDivElement>(null);
  const replayCard = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (replaying) replayCard.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  }, [replaying]);
  // Until a person picks sides, the newest snapshot is compared with the current state.
  const sides = picked ?? { a: items[0]?.id ?? null, b: CURRENT };

  const compare = (s: DiffSides) => {
    setPicked(s);
    diffCard.current?.scrollIntoView({ behavior: "smooth", block: "start" });
  };
  const done = (what: "rollback" | "replay") => (summary: RewindSummary) => {
    setReplaying(null);
    setRewound({ what, summary });
    // The state just left against the one now: both runs side by side.
    setPicked({ a: summary.autoSnapshot, b: CURRENT });
  };

  return (
    <div className="stack">
      <h1 className="page-title">Snapshots</h1>
      <p className="muted">
        A replay gives each re-run contract&apos;s member a new branch and keeps the first run&apos;s code on the old one:{" "}
        <Link href={compareHref(team, "", "")}>compare two runs&apos; code</Link>.
      </p>
      <Card title="Snapshots" testId="snapshots">
        <TakeSnapshotForm team={team} onTaken={() => setCursors([])} />
        <ListState
          loading={list.isLoading}
          error={list.error}
          empty={items.length === 0}
          hint="No snapshots of this team yet. A snapshot saves contracts, pipelines, roster, gate state and which version of each artifact is current."
        />
        {items.length > 0 && (
          <SnapshotTable
            team={team}
            items={items}
            onCompare={(a, b) => compare({ a, b })}
            onReplay={(id) => {
              setRewound(null);
              setReplaying(id);
            }}
            onRolledBack={done("rollback")}
          />
        )}
        {(cursors.length > 0 || list.data?.nextCursor != null) && (
          <div className="toolbar pager">
            <button type="button" onClick={() => setCursors((c) => c.slice(0, -1))} disabled={cursors.length === 0}>
              Newer
            </button>
            <button
              type="button"
              onClick={() => list.data?.nextCursor != null && setCursors((c) => [...c, list.data!.nextCursor!])}
              disabled={list.data?.nextCursor == null}
            >
              Older
            </button>
          </div>
        )}
      </Card>
      {replaying && (
        <div ref={replayCard}>
          <Card title={`Replay ${replaying}`} testId="replay">
            <ReplayEditor key={replaying} team={team} id={replaying} onDone={done("replay")} onCancel={() => setReplaying(null)} />
          </Card>
        </div>
      )}
      {rewound && (
        <Card title={rewound.what === "replay" ? "Replay done" : "Rollback done"} testId="rewind">
          <RewindResult what={rewound.what} summary={rewound.summary} onCompare={() => compare({ a: rewound.summary.autoSnapshot, b: CURRENT })} />
        </Card>
      )}
      <div ref={diffCard}>
        <Card title="Diff" testId="diff">
          <DiffViewer team={team} sides={sides} snapshots={items} onChange={setPicked} />
        </Card>
      </div>
    </div>
  );
}
