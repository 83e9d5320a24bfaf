"use client";

import { useEffect, useRef, useState } from "react";
import type { OutputKind, OutputPiece } from "@/lib/api/runnable.ts";
import { commandOutputPage } from "@/lib/queries/runnable.ts";
import { connectLive } from "@/lib/ws-client.ts";

/**
 * What a session's setup, run or archive command printed: the stored pieces, then each new one as /ws pushes it
 * (`process_output` frames of the followed session). After every (re)subscription it reads what it may have missed
 * from the last piece it knows it has everything up to; pieces are kept by id, so overlaps merge away. `epoch` (the
 * command's start time) starts it afresh: a new setup or run replaces its output.
 *
 * @example const { text, loading, error } = useCommandOutput("alice", "dev", "setup", open, state.setup.startedAt)
 */
export function useCommandOutput(name: string, team: string, kind: OutputKind, enabled: boolean, epoch: string | null) {
  const [pieces, setPieces] = useState<OutputPiece[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<Error | null>(null);
  // Every piece up to this id is known; pieces pushed during a catch-up do not count until it ends.
  const complete = useRef(0);
  const highest = useRef(0);
  const catching = useRef(false);

  useEffect(() => {
    if (!enabled) return;
    setPieces([]);
    setLoading(true);
    complete.current = 0;
    highest.current = 0;
    let stopped = false;
    const add = (more: OutputPiece[]) => {
      if (more.length === 0) return;
      highest.current = Math.max(highest.current, ...more.map((p) => p.id));
      setPieces((known) => {
        const byId = new Map(known.map((p) => [p.id, p]));
        for (const p of more) byId.set(p.id, p);
        return [...byId.values()].sort((a, b) => a.id - b.id);
      });
    };
    const catchUp = async () => {
      catching.current = true;
      try {
        for (;;) {
          const page = await commandOutputPage(name, kind, complete.current);
          if (stopped) return;
          add(page.pieces);
          if (page.pieces.length) complete.current = page.pieces[page.pieces.length - 1].id;
          if (page.pieces.length === 0 || !page.running) break;
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
        if (s === "live") void catchUp();
      },
      onOutput: (o) => {
        if (o.session !== name || o.piece.kind !== kind) return;
        add([o.piece]);
        if (!catching.current) complete.current = Math.max(complete.current, o.piece.id);
      },
    });
    return () => {
      stopped = true;
      disconnect();
    };
  }, [name, team, kind, enabled, epoch]);

  return { text: pieces.map((p) => p.text).join(""), loading, error };
}
