"use client";

import { useRouter } from "next/navigation";
import type { SessionView } from "@/lib/api/sessions.ts";
import { useDeleteSession, useLifecycle, useRuntimes, type Lifecycle } from "@/lib/queries/sessions.ts";
import { ConfirmButton } from "../ui/ConfirmButton.tsx";
import { controlsFor } from "./controls.ts";
import { ForkButton } from "./ForkButton.tsx";

/** Stop, kill, pause, resume, fork and delete, each offered only in a state that allows it. */
export function SessionControls({ session }: { session: SessionView }) {
  const router = useRouter();
  const { team, name } = session;
  const lifecycle = useLifecycle(team, name);
  const del = useDeleteSession(team, name);
  const can = controlsFor(session);
  // What its runtime cannot do is said on the button, not only by the hub's refusal.
  const cannotFork = useRuntimes().data?.find((r) => r.name === session.runtime)?.cannot.fork;
  const busy = lifecycle.isPending || del.isPending;
  const run = (op: Lifecycle) => lifecycle.mutate(op);
  const error = lifecycle.error ?? del.error;
  return (
    <div className="stack">
      <div className="toolbar" role="toolbar" aria-label="session controls">
        <button type="button" disabled={!can.pause || busy} onClick={() => run("pause")}>
          Pause
        </button>
        <button type="button" disabled={!can.resume || busy} onClick={() => run("resume")}>
          Resume
        </button>
        <button type="button" disabled={!can.stop || busy} onClick={() => run("stop")} title="close its input: the running turn finishes first">
          Stop
        </button>
        <ConfirmButton
          label="Kill"
          danger
          disabled={!can.kill || busy}
          question={
            <>
              Kill <strong>{name}</strong>? The running turn is interrupted and the process ends.
            </>
          }
          onConfirm={() => run("kill")}
        />
        <ForkButton team={team} name={name} disabled={!can.fork || cannotFork !== undefined} why={cannotFork && `${session.runtime}: ${cannotFork}`} />
        <ConfirmButton
          label="Delete"
          danger
          disabled={busy}
          question={
            <>
              Delete <strong>{name}</strong> with its transcript and history? A running process is killed. This cannot be undone.
            </>
          }
          onConfirm={() => del.mutate(undefined, { onSuccess: () => router.push("/sessions") })}
        />
      </div>
      {error && (
        <p className="form-error" role="alert">
          {error.message}
        </p>
      )}
    </div>
  );
}
