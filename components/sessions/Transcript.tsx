"use client";

import { useLayoutEffect, useMemo, useRef, useState } from "react";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { ListState } from "../ui/Card.tsx";
import { buildItems, relativeTo } from "./transcript-model.ts";
import { TranscriptRow, type RowContext } from "./TranscriptRow.tsx";
import { useNow } from "./useNow.ts";
import { useTranscript } from "./useTranscript.ts";

// Within this many pixels of the end counts as "at the end": the view keeps following new lines.
const STICK_PX = 48;

/** What the transcript knows of its session beyond its lines (docs/dashboard.md#the-transcript). */
export type TranscriptSession = {
  status: string;
  /** The running turn, for "model working · 6 s". */
  running: InteractionView | null;
  /** Its work dir and work tree: paths under them are written relative to them. */
  roots: string[];
  /** The failed turn Retry sends again, if the last turn failed. */
  retryable: number | null;
};

/** "6 s", "2 min 5 s": how long the model has been at it. */
const elapsed = (ms: number) => {
  const s = Math.floor(ms / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

/** "model working · 6 s" while the turn runs and nothing streams; "waiting for a decision" while a request waits. */
function Working({ session, since }: { session: TranscriptSession; since: number }) {
  const now = useNow(1000);
  if (session.status === "waiting_permission") return <div className="tx-working waiting">waiting for a decision on a tool call</div>;
  if (session.status !== "busy" || !session.running) return null;
  return (
    <div className="tx-working" data-testid="tx-working" role="status">
      <span className="tx-dots" aria-hidden="true" /> model working · {elapsed(Math.max(0, now - since))}
    </div>
  );
}

/**
 * The live transcript, read like a log: tool calls one line each with their permission's answer as a badge (Bash as
 * `$ command`), paths relative to the session's work tree, the CLI's system lines behind one toggle, a "model
 * working" line while the turn runs, a failed turn's error once with Retry. It follows new lines unless the reader
 * scrolled up to read older ones.
 */
export function Transcript({
  name,
  team,
  interactions,
  session,
}: {
  name: string;
  team: string | undefined;
  interactions: InteractionView[];
  session?: TranscriptSession;
}) {
  const { entries, loading, error, live, streaming } = useTranscript(name, team);
  const items = useMemo(() => buildItems(entries), [entries]);
  const [system, setSystem] = useState(false);
  const systemLines = items.filter((i) => i.kind === "raw").length;
  const shown = system ? items : items.filter((i) => i.kind !== "raw");
  const roots = session?.roots.join("\n") ?? "";
  const retryable = session?.retryable ?? null;
  const ctx = useMemo<RowContext>(
    () => ({
      rel: relativeTo(roots ? roots.split("\n") : []),
      interactions: new Map(interactions.map((i) => [i.id, i])),
      retry: team && retryable ? { team, name, id: retryable } : null,
    }),
    [roots, interactions, team, name, retryable],
  );
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [behind, setBehind] = useState(false);
  // The model has been at it since its last line, or since the turn started.
  const lastAt = entries.at(-1)?.at.getTime() ?? 0;
  const since = Math.max(lastAt, session?.running?.startedAt.getTime() ?? 0);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else setBehind(true);
  }, [shown.length, items, streaming, session?.status]);

  const onScroll = () => {
    const el = box.current!;
    stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX;
    if (stick.current) setBehind(false);
  };
  const toEnd = () => {
    stick.current = true;
    setBehind(false);
    box.current?.scrollTo({ top: box.current.scrollHeight });
  };

  return (
    <div className="tx-wrap">
      <div className="tx" ref={box} onScroll={onScroll} role="log" aria-label="transcript" aria-live="polite" tabIndex={0} data-testid="transcript">
        <ListState
          loading={loading && entries.length === 0}
          error={error}
          empty={!loading && items.length === 0}
          hint="Nothing yet: the transcript starts with the first message."
        />
        {shown.map((item) => (
          <TranscriptRow key={item.key} item={item} ctx={ctx} />
        ))}
        {streaming && (
          <div className="tx-text streaming" data-testid="tx-streaming">
            {streaming}
            <span className="tx-caret" aria-hidden="true" />
          </div>
        )}
        {session && !streaming && <Working session={session} since={since} />}
      </div>
      <div className="row tx-status">
        <span className="muted">{live === "live" ? "following live" : live === "offline" ? "offline: reconnecting…" : "connecting…"}</span>
        {systemLines > 0 && (
          <button type="button" className="ghost small" aria-pressed={system} onClick={() => setSystem(!system)} data-testid="tx-system-toggle">
            {system ? "hide" : "show"} {systemLines} system line{systemLines === 1 ? "" : "s"}
          </button>
        )}
        <span className="spacer" />
        {behind && (
          <button type="button" className="ghost" onClick={toEnd}>
            ↓ new lines below
          </button>
        )}
      </div>
    </div>
  );
}
