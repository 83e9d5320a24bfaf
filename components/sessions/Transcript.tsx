"use client";

import { useLayoutEffect, useMemo, useRef, useState } from "react";
import type { InteractionView } from "@/lib/api/sessions.ts";
import { ListState } from "../ui/Card.tsx";
import { buildItems } from "./transcript-model.ts";
import { TranscriptRow } from "./TranscriptRow.tsx";
import { useTranscript } from "./useTranscript.ts";

// Within this many pixels of the end counts as "at the end": the view keeps following new lines.
const STICK_PX = 48;

/** The live transcript; it follows new lines unless the reader scrolled up to read older ones. */
export function Transcript({ name, team, interactions }: { name: string; team: string | undefined; interactions: InteractionView[] }) {
  const { entries, loading, error, live, streaming } = useTranscript(name, team);
  const items = useMemo(() => buildItems(entries), [entries]);
  const byId = useMemo(() => new Map(interactions.map((i) => [i.id, i])), [interactions]);
  const box = useRef<HTMLDivElement>(null);
  const stick = useRef(true);
  const [behind, setBehind] = useState(false);

  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    if (stick.current) el.scrollTop = el.scrollHeight;
    else setBehind(true);
  }, [items, streaming]);

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
        {items.map((item) => (
          <TranscriptRow key={item.key} item={item} interactions={byId} />
        ))}
        {streaming && (
          <div className="tx-text streaming" data-testid="tx-streaming">
            {streaming}
            <span className="tx-caret" aria-hidden="true" />
          </div>
        )}
      </div>
      <div className="row tx-status">
        <span className="muted">{live === "live" ? "following live" : live === "offline" ? "offline: reconnecting…" : "connecting…"}</span>
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
