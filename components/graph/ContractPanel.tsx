"use client";

import { useState, type FormEvent } from "react";
import type { Dependency } from "@/lib/api/contracts.ts";
import type { ContractGraphNode } from "@/lib/api/graph.ts";
import { useContract, useContractAction, useDependencyChange, type ContractAction } from "@/lib/queries/graph.ts";
import { JsonView } from "../ui/JsonView.tsx";
import { ListState } from "../ui/Card.tsx";
import { StatusBadge } from "../ui/StatusBadge.tsx";

// The states each action starts from (the hub's state machine; it refuses anything else anyway).
const FROM: Record<ContractAction["op"] | "depend", string[]> = {
  start: ["ready"],
  complete: ["ready", "in_progress"],
  fail: ["pending", "ready", "in_progress"],
  reopen: ["completed", "failed"],
  depend: ["pending", "ready"],
};

const dependencyText = (d: Dependency) =>
  d.type === "contract" ? `contract ${d.contractId}` : `artifact ${d.artifactId}${d.minVersion ? ` ≥ v${d.minVersion}` : ""}`;

/** A contract's details and what a person can do with it, through the hub's contract routes. */
export function ContractPanel({ team, node, onSelect }: { team: string; node: ContractGraphNode; onSelect: (key: string) => void }) {
  const detail = useContract(team, node.id);
  const action = useContractAction(team, node.id);
  const depend = useDependencyChange(team);
  const [reason, setReason] = useState("");
  const [summary, setSummary] = useState("");
  const [force, setForce] = useState(false);
  const c = detail.data;
  const status = c?.status ?? node.status;
  const can = (op: keyof typeof FROM) => FROM[op].includes(status);
  const error = (action.error ?? depend.error) as Error | null;
  const run = (a: ContractAction) => {
    depend.reset();
    action.mutate(a, { onSuccess: () => setReason("") });
  };
  const complete = (e: FormEvent) => {
    e.preventDefault();
    run({ op: "complete", ...(summary.trim() ? { summary: summary.trim() } : {}), ...(force ? { force, reason: reason.trim() || undefined } : {}) });
  };

  return (
    <div className="stack" data-testid="contract-panel">
      <div>
        <h2 className="panel-title">{node.title}</h2>
        <div className="row">
          <StatusBadge status={status} />
          <span className="mono">{node.id}</span>
        </div>
        {(c?.statusReason ?? node.statusReason) && (
          <p className="muted" data-testid="status-reason">
            {c?.statusReason ?? node.statusReason}
          </p>
        )}
      </div>
      <ListState loading={detail.isLoading} error={detail.error} empty={false} hint="" />
      {c && (
        <>
          <dl className="canvas-facts">
            <dt>Assignee</dt>
            <dd>{c.assignee}</dd>
            <dt>Assigner</dt>
            <dd>{c.assigner}</dd>
            <dt>Priority</dt>
            <dd>{c.priority}</dd>
            <dt>Retries</dt>
            <dd>
              {c.retryCount} of {c.maxRetries}
            </dd>
            {c.deadlineAt && (
              <>
                <dt>Deadline</dt>
                <dd>{c.deadlineAt.toLocaleString()}</dd>
              </>
            )}
          </dl>
          {c.description && <p>{c.description}</p>}
          <section aria-label="dependencies">
            <h3>Dependencies</h3>
            {c.dependencies.length === 0 && <p className="empty">None: it was ready as soon as it was created.</p>}
            <ul className="plain" data-testid="dependencies">
              {c.dependencies.map((d) => {
                const key = d.type === "contract" ? `contract:${d.contractId}` : `artifact:${d.artifactId}`;
                return (
                  <li key={key} className="row">
                    <button type="button" className="ghost link" onClick={() => onSelect(key)}>
                      {dependencyText(d)}
                    </button>
                    <button
                      type="button"
                      className="danger"
                      disabled={!can("depend") || depend.isPending}
                      title={can("depend") ? undefined : "dependencies change only while the contract is pending or ready"}
                      aria-label={`remove dependency on ${dependencyText(d)}`}
                      onClick={() => (action.reset(), depend.mutate({ id: node.id, dependency: d, remove: true }))}
                    >
                      remove
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
          <section aria-label="outputs">
            <h3>Outputs</h3>
            {c.expectedOutputs.length === 0 && !c.outputs?.length && <p className="empty">No expected outputs.</p>}
            <ul className="plain">
              {c.expectedOutputs.map((o, i) => (
                <li key={i}>
                  expects{" "}
                  <span className="mono">
                    {o.artifactType}
                    {o.artifactId ? `: ${o.artifactId}` : ""}
                  </span>
                  {o.required ? "" : " (optional)"}
                </li>
              ))}
              {(c.outputs ?? []).map((o) => (
                <li key={o.artifactId}>
                  published{" "}
                  <button type="button" className="ghost link mono" onClick={() => onSelect(`artifact:${o.artifactId}`)}>
                    {o.artifactId}@v{o.version}
                  </button>
                </li>
              ))}
            </ul>
          </section>
          {Object.keys(c.inputs).length > 0 && (
            <section aria-label="inputs">
              <h3>Inputs</h3>
              <JsonView value={c.inputs} label={`inputs of ${c.id}`} />
            </section>
          )}
        </>
      )}
      <section aria-label="actions" className="stack">
        <h3>Actions</h3>
        <div className="row">
          <button type="button" className="primary" disabled={!can("start") || action.isPending} onClick={() => run({ op: "start" })}>
            Start
          </button>
          <button
            type="button"
            disabled={!can("reopen") || action.isPending}
            onClick={() => run({ op: "reopen", ...(reason.trim() ? { reason: reason.trim() } : {}) })}
          >
            Reopen
          </button>
          <button type="button" className="danger" disabled={!can("fail") || action.isPending} onClick={() => run({ op: "fail", reason: reason.trim() })}>
            Fail
          </button>
        </div>
        <label className="field">
          <span>Reason (needed to fail or force; optional to reopen)</span>
          <input value={reason} onChange={(e) => setReason(e.target.value)} autoComplete="off" />
        </label>
        <form onSubmit={complete} className="stack">
          <label className="field">
            <span>Completion summary (optional)</span>
            <input value={summary} onChange={(e) => setSummary(e.target.value)} autoComplete="off" />
          </label>
          <div className="row">
            <label className="row">
              <input type="checkbox" checked={force} onChange={(e) => setForce(e.target.checked)} /> force (acceptance criteria not met)
            </label>
            <button type="submit" disabled={!can("complete") || action.isPending}>
              Complete
            </button>
          </div>
        </form>
        {error && (
          <p className="form-error" role="alert" data-testid="panel-error">
            {error.message}
          </p>
        )}
      </section>
    </div>
  );
}
