"use client";

import Link from "next/link";
import { useLayoutEffect, useRef, useState, type ReactNode } from "react";
import type { OutputKind, RunnableState } from "@/lib/api/runnable.ts";
import { ENDED_STATUSES, type SessionView } from "@/lib/api/sessions.ts";
import { duration } from "@/lib/format.ts";
import { useRunCommand, useRunnable, useSetupAgain } from "@/lib/queries/runnable.ts";
import { Card, ListState } from "../ui/Card.tsx";
import { useCommandOutput } from "./useCommandOutput.ts";

// Output shown at most: the tail of it (`teamhub setup-log` prints it all).
const SHOWN_CHARS = 200_000;

const SETUP_BADGE = { pending: "pending", running: "running", succeeded: "completed", failed: "failed" } as const;

const Fact = ({ term, children, testId }: { term: string; children: ReactNode; testId?: string }) => (
  <div>
    <dt>{term}</dt>
    <dd data-testid={testId}>{children}</dd>
  </div>
);

/** One command: its label, then a line of what it is and what to do about it, with `below` (error, output) under the line. */
const Row = ({ label, testId, children, below }: { label: string; testId: string; children: ReactNode; below?: ReactNode }) => (
  <div className="runnable-row">
    <span className="runnable-label">{label}</span>
    <div className="runnable-body">
      <div className="runnable-line" data-testid={testId}>
        {children}
      </div>
      {below}
    </div>
  </div>
);

/** What a command printed, in a box of bounded height that scrolls inside itself and follows the end while it is there. */
function OutputBox({ name, team, kind, epoch, label }: { name: string; team: string; kind: OutputKind; epoch: string | null; label: string }) {
  const { text, loading, error } = useCommandOutput(name, team, kind, true, epoch);
  const box = useRef<HTMLPreElement>(null);
  const atEnd = useRef(true);
  useLayoutEffect(() => {
    if (box.current && atEnd.current) box.current.scrollTop = box.current.scrollHeight;
  }, [text]);
  const shown = text.length > SHOWN_CHARS ? text.slice(-SHOWN_CHARS) : text;
  if (error) return <p className="error">Could not load the output: {error.message}</p>;
  return (
    <pre
      ref={box}
      className="command-output"
      role="log"
      aria-label={label}
      data-testid={`${kind}-output`}
      onScroll={(e) => {
        const el = e.currentTarget;
        atEnd.current = el.scrollHeight - el.scrollTop - el.clientHeight < 24;
      }}
    >
      {text.length > SHOWN_CHARS && <span className="muted">{`[the first ${text.length - SHOWN_CHARS} characters are left out here]\n`}</span>}
      {shown || <span className="muted">{loading ? "Loading…" : "No output yet."}</span>}
    </pre>
  );
}

/** Collapsible output, read only while open; `autoOpen`: open by itself (a setup while it runs) unless closed by hand. */
function Output({ state, kind, autoOpen, summary }: { state: RunnableState & { team: string }; kind: OutputKind; autoOpen: boolean; summary: string }) {
  const [chosen, setChosen] = useState<boolean | null>(null);
  const open = chosen ?? autoOpen;
  const epoch = kind === "setup" ? state.setup.startedAt : state.run.startedAt;
  return (
    <details className="command-output" open={open} onToggle={(e) => setChosen(e.currentTarget.open)}>
      <summary>{summary}</summary>
      {open && <OutputBox name={state.name} team={state.team} kind={kind} epoch={epoch ? epoch.toISOString() : null} label={summary} />}
    </details>
  );
}

function Ports({ ports }: { ports: number[] }) {
  if (ports.length === 0) return <span className="muted">none</span>;
  return (
    <span className="ports">
      {ports.map((p, i) => (
        <span key={p}>
          <code>{p}</code>
          {i === 0 && <span className="muted"> PORT</span>}
          {i < ports.length - 1 && ", "}
        </span>
      ))}
    </span>
  );
}

function Included({ files }: { files: string[] }) {
  if (files.length === 0) return <span className="muted">none</span>;
  return (
    <details className="included">
      <summary title={files.join("\n")}>
        {files.length} {files.length === 1 ? "file" : "files"}
      </summary>
      <ul className="plain">
        {files.map((f) => (
          <li key={f}>
            <code>{f}</code>
          </li>
        ))}
      </ul>
    </details>
  );
}

function SetupRow({ state, ended }: { state: RunnableState & { team: string }; ended: boolean }) {
  const again = useSetupAgain(state.team, state.name);
  const command = state.config?.setup;
  const { status, exitCode, error, startedAt, finishedAt } = state.setup;
  if (!command) {
    return (
      <Row label="Setup" testId="runnable-setup">
        <span className="muted">none configured</span>
      </Row>
    );
  }
  const took = startedAt && finishedAt ? ` in ${duration(finishedAt.getTime() - startedAt.getTime())}` : "";
  const below = (
    <>
      {status === "failed" && error && (
        <p className="problem" data-testid="setup-error">
          {error}
        </p>
      )}
      {status === "failed" && !ended && <p className="hint">The session is still stopping; setup can run again once it has ended.</p>}
      {again.error && (
        <p className="form-error" role="alert">
          {again.error.message}
        </p>
      )}
      {status && status !== "pending" && <Output state={state} kind="setup" autoOpen={status === "running"} summary="Setup output" />}
    </>
  );
  return (
    <Row label="Setup" testId="runnable-setup" below={below}>
      <code className="runnable-command">{command}</code>
      {status && (
        <span className={`badge ${SETUP_BADGE[status]}`} data-testid="setup-status">
          {status === "running" ? "running…" : status}
        </span>
      )}
      {status === "succeeded" && <span className="muted">{`exit ${exitCode ?? 0}${took}`}</span>}
      {status === "pending" && <span className="muted">runs before the session&apos;s next turn</span>}
      {status === "failed" && (
        <button
          type="button"
          className="small"
          disabled={again.isPending || !ended}
          onClick={() => again.mutate()}
          title="read the config from the base branch again and run it"
        >
          {again.isPending ? "Starting…" : "Run setup again"}
        </button>
      )}
    </Row>
  );
}

function RunRow({ state, ended }: { state: RunnableState & { team: string }; ended: boolean }) {
  const run = useRunCommand(state.team, state.name);
  const command = state.config?.run;
  if (!command) {
    return (
      <Row label="Run" testId="runnable-run">
        <span className="muted">none configured</span>
      </Row>
    );
  }
  const { status, exitCode, url } = state.run;
  const running = status === "running";
  const setupPending = state.config?.setup != null && state.setup.status !== "succeeded";
  const why = ended ? "starts while the session runs" : setupPending ? "starts after setup succeeds" : null;
  const below = (
    <>
      {run.error && (
        <p className="form-error" role="alert">
          {run.error.message}
        </p>
      )}
      {status && <Output state={state} kind="run" autoOpen={false} summary="Run output" />}
    </>
  );
  return (
    <Row label="Run" testId="runnable-run" below={below}>
      <code className="runnable-command">{command}</code>
      <span className={`badge ${running ? "running" : status === "exited" && exitCode !== 0 ? "failed" : "stopped"}`} data-testid="run-status">
        {running ? "running" : status === "exited" ? `exited${exitCode === null ? "" : ` (${exitCode})`}` : (status ?? "not started")}
      </span>
      {running && url && (
        <a href={url} target="_blank" rel="noreferrer" data-testid="run-url">
          {url}
        </a>
      )}
      {running ? (
        <button type="button" className="small" disabled={run.isPending} onClick={() => run.mutate(true)}>
          {run.isPending ? "Stopping…" : "Stop"}
        </button>
      ) : (
        <button type="button" className="small" disabled={run.isPending || why !== null} onClick={() => run.mutate(false)} title={why ?? undefined}>
          {run.isPending ? "Starting…" : "Start"}
        </button>
      )}
      {!running && why && <span className="muted">{why}</span>}
    </Row>
  );
}

/**
 * A session's own work tree made runnable (docs/worktrees.md#runnable-work-trees): its ports (PORT first), where its
 * config comes from, the gitignored files copied in, its setup (live output; a failure with its error and "Run setup
 * again") and its run command (Start, Stop, its address while it runs, its output).
 */
export function WorktreePanel({ session }: { session: SessionView }) {
  const runnable = useRunnable(session.team, session.name);
  const r = runnable.data;
  const ended = (ENDED_STATUSES as readonly string[]).includes(session.status);
  return (
    <Card title="Work tree" testId="worktree-panel">
      {!r ? (
        <ListState loading={runnable.isLoading} error={runnable.error} empty={false} hint="" />
      ) : (
        <div className="runnable">
          <dl className="facts">
            <Fact term="Ports" testId="runnable-ports">
              <Ports ports={r.ports} />
            </Fact>
            <Fact term="Config" testId="runnable-source">
              {r.config === null ? (
                <span className="muted">none</span>
              ) : r.config.source === "team settings" ? (
                <Link href="/settings">team settings</Link>
              ) : (
                <code>teamhub.json</code>
              )}
            </Fact>
            <Fact term="Included files" testId="runnable-included">
              <Included files={r.included} />
            </Fact>
          </dl>
          {r.config === null ? (
            <p className="muted">
              Nothing to set up or run: the base branch has no <code>teamhub.json</code> and the team sets no work tree commands.
            </p>
          ) : (
            <>
              <SetupRow state={{ ...r, team: session.team }} ended={ended} />
              <RunRow state={{ ...r, team: session.team }} ended={ended} />
            </>
          )}
        </div>
      )}
    </Card>
  );
}
