import Link from "next/link";
import type { ReactNode } from "react";
import { duration, usd } from "@/lib/format.ts";
import type { SessionStatusView } from "@/lib/api/sessions.ts";
import { useThisHub } from "@/lib/queries/settings.ts";
import { CopyButton } from "../ui/CopyButton.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";
import { HubName } from "./HubName.tsx";
import { SandboxBadge } from "./SandboxBadge.tsx";
import { SessionProblem } from "./SessionProblem.tsx";
import { SessionControls } from "./SessionControls.tsx";
import { SessionFixes } from "../fixes/SessionFixes.tsx";

const Fact = ({ term, children, testId, wide }: { term: string; children: ReactNode; testId?: string; wide?: boolean }) => (
  <div className={wide ? "wide" : undefined}>
    <dt>{term}</dt>
    <dd data-testid={testId}>{children}</dd>
  </div>
);

/** Who the session is, what it has cost, how it is limited, and the buttons that change its state. */
export function SessionHeader({ session: s }: { session: SessionStatusView }) {
  const limits = s.safety.enabled
    ? `${usd(s.safety.maxCostUsd)} · ${s.safety.maxTurns} turns · ${duration(s.safety.timeoutMs)} per turn`
    : "off (protected paths still denied)";
  const thisHub = useThisHub();
  // The agent's own id for its conversation: Claude Code's session id, Codex's thread.
  const agentName = s.runtime.charAt(0).toUpperCase() + s.runtime.slice(1);
  return (
    <section className="card session-head" aria-label={`session ${s.name}`}>
      <div className="row">
        <h1 className="page-title">{s.name}</h1>
        <span data-testid="session-status">
          <StatusBadge status={s.status} position={s.queuePosition} problem={s.problem} />
        </span>
        {s.stalled && (
          <span className="badge stalled" data-alert-key={`stalled:${s.name}`}>
            stalled
          </span>
        )}
        <SandboxBadge sandbox={s.sandbox} />
        <span className="muted">
          {s.kind}
          {s.principal && s.principal !== s.name && <> · acts as {s.principal}</>}
          {s.parent && (
            <>
              {" "}
              · forked from <Link href={`/sessions/${encodeURIComponent(s.parent)}`}>{s.parent}</Link>
            </>
          )}
        </span>
      </div>
      <dl className="facts">
        <Fact term="Runtime" testId="session-runtime">
          {s.runtime}
        </Fact>
        <Fact term="Model">{s.model ?? "default"}</Fact>
        <Fact term="Cost" testId="session-cost">
          {usd(s.costUsd)}
        </Fact>
        <Fact term="Model turns">{s.turns}</Fact>
        <Fact term="Interactions">
          {s.interactions}
          {s.queued > 0 && <span className="muted"> (+{s.queued} queued)</span>}
        </Fact>
        <Fact term="PID">{s.pid ?? "—"}</Fact>
        <Fact term="Hub" testId="session-hub">
          <HubName hub={s.hub} thisHub={thisHub} />
        </Fact>
        <Fact term={`${agentName} session`}>
          {s.claudeSessionId ? (
            <span className="row nowrap">
              <code title={s.claudeSessionId}>{s.claudeSessionId.slice(0, 8)}…</code>
              <CopyButton text={s.claudeSessionId} label={`${agentName} session id`} />
            </span>
          ) : (
            "—"
          )}
        </Fact>
        <Fact term="Preset">
          {s.preset}
          {s.allowedTools.length > 0 && <span className="muted"> + {s.allowedTools.join(", ")}</span>}
        </Fact>
        <Fact term="Safety limits" wide>
          {limits}
        </Fact>
        <Fact term="Work dir" wide>
          <code className="wrap">{s.workDir}</code>
        </Fact>
      </dl>
      <SessionProblem problem={s.problem} testId="session-problem" alertKey={`problem:${s.name}`} />
      <SessionFixes session={s} />
      {s.lastError && !s.problem?.includes(s.lastError) && (
        <details className="last-error">
          <summary>Last error</summary>
          <pre className="wrap" data-testid="session-error">
            {s.lastError}
          </pre>
        </details>
      )}
      <SessionControls session={s} />
    </section>
  );
}
