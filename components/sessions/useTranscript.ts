"use client";

import { useEffect, useRef, useState } from "react";
import { connectLive, type LiveState } from "@/lib/ws-client.ts";
import type { TranscriptEntryView } from "@/lib/api/sessions.ts";
import { transcriptPage } from "@/lib/queries/sessions.ts";
import { endsTextInFlight } from "@/lib/ws.ts";
import { mergeEntries } from "./transcript-model.ts";

const PAGE = 500;

/**
 * A session's transcript: stored lines from the API, then each new line as /ws pushes it, and
 * the text the model is writing right now (`streaming`, from the message's first word even when the
 * page opens mid-message) until its stored line arrives. After every (re)subscription it reads what
 * it may have missed from the last line it knows it has everything up to, so a reconnect leaves no
 * gap; overlaps are merged away by id.
 *
 * @example const { entries, loading, error } = useTranscript("fix-auth", session.data?.team)
 */
export function useTranscript(name: string, team: string | undefined) {
  const [entries, setEntries] = useState<TranscriptEntryView[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  const [live, setLive] = useState<LiveState>("connecting");
  const [streaming, setStreaming] = useState("");
  // Every line up to this id is known; lines pushed during a catch-up do not count until it ends.
  const complete = useRef(0);
  const highest = useRef(0);
  const catching = useRef(false);

  useEffect(() => {
    if (!team) return;
    setEntries([]);
    setStreaming("");
    setLoading(true);
    complete.current = 0;
    highest.current = 0;
    let stopped = false;
    const add = (more: TranscriptEntryView[]) => {
      if (more.length === 0) return;
      highest.current = Math.max(highest.current, ...more.map((e) => e.id));
      setEntries((known) => mergeEntries(known, more));
    };
    const catchUp = async () => {
      catching.current = true;
      try {
        for (;;) {
          const page = await transcriptPage(name, complete.current, PAGE);
          if (stopped) return;
          add(page.entries);
          if (page.entries.length) complete.current = page.entries[page.entries.length - 1].id;
          if (page.entries.length < PAGE) break;
        }
        complete.current = Math.max(complete.current, highest.current);
        setError(null);
      } catch (e) {
        if (!stopped) setError(e as Error);
      } finally {
        catching.current = false;
        if (!stopped) setLoading(false);
      }
    };
    const disconnect = connectLive({
      teams: [team],
      sessions: [name],
      onState: (s) => {
        setLive(s);
        if (s === "live") void catchUp();
        // Pieces sent while the connection was down are gone; the stored line will bring the whole text.
        else setStreaming("");
      },
      onTextDelta: (d) => {
        if (d.session !== name) return;
        // The text so far (sent on subscribing, so a page opened mid-message starts at its first word) replaces what we hold.
        if (d.soFar) setStreaming(d.elided ? `…${d.text}` : d.text);
        else setStreaming((text) => text + d.text);
      },
      onTranscript: (t) => {
        if (t.session !== name) return;
        // The stored assistant line holds the streamed text; a result ends the turn either way.
        if (endsTextInFlight(t.entry)) setStreaming("");
        add([t.entry]);
        if (!catching.current) complete.current = Math.max(complete.current, t.entry.id);
      },
    });
    return () => {
      stopped = true;
      disconnect();
    };
  }, [name, team]);

  return { entries, loading, error, live, streaming };
}
