"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { api } from "@/lib/api/endpoints/index.ts";
import type { GateReport } from "@/lib/api/gate.ts";
import { apiCall, ApiError } from "@/lib/browser-api.ts";
import { useArtifacts } from "@/lib/queries/home.ts";
import { keys } from "@/lib/queries/keys.ts";
import { usePermissions } from "@/lib/queries/permissions.ts";
import { useRoster } from "@/lib/queries/roster.ts";
import { useUpdateTeamSettings } from "@/lib/queries/settings.ts";

/** The phase gate's refusal of a team spawn (server/domain/gate/spawn-batches.ts): how many batches started. */
export function gateRefusal(error: unknown): { batches: number } | null {
  if (!(error instanceof ApiError) || error.code !== "precondition_failed") return null;
  const { spawnBatchCount, example } = error.details;
  return typeof spawnBatchCount === "number" && typeof example === "string" && example.startsWith("phase_gate(") ? { batches: spawnBatchCount } : null;
}

const toggled = (list: string[], item: string, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));

/** What the gate found, check by check, with what to do about the ones that failed. */
function Report({ report }: { report: GateReport }) {
  return (
    <div className={report.passed ? "gate-report passed" : "gate-report failed"} role="status" data-testid="gate-report">
      <strong>
        {report.gate}: {report.passed ? "passed" : "not passed"}
      </strong>
      <ul className="plain">
        {report.checks.map((c) => (
          <li key={c.check}>
            {c.passed ? "✓" : "✗"} {c.check.replace("_", " ")}
          </li>
        ))}
      </ul>
      <p className="muted">{report.recommendation}</p>
    </div>
  );
}

/** The gate run from the dashboard: the same POST /api/phase-gate as `teamhub phase-gate` and the MCP tool. */
function RunGate({ team, batches, onPassed }: { team: string; batches: number; onPassed: () => void }) {
  const qc = useQueryClient();
  const artifacts = useArtifacts(team).data?.items ?? [];
  const roster = useRoster(team).data ?? [];
  const [completing, setCompleting] = useState(`Phase ${batches}`);
  const [starting, setStarting] = useState(`Phase ${batches + 1}`);
  const [expected, setExpected] = useState<string[]>([]);
  // Unset: the whole roster must be idle, as the gate checks by default.
  const [idle, setIdle] = useState<string[] | null>(null);
  const idleNames = idle ?? roster.map((m) => m.name);
  const gate = useMutation({
    mutationFn: () =>
      apiCall(api.gate.check, {
        team,
        phase_completing: completing,
        phase_starting: starting,
        expected_artifacts: expected,
        ...(idle ? { expected_idle: idle } : {}),
      }),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: keys.team(team) });
      if (r.passed) onPassed();
    },
  });
  return (
    <div className="gate-run" role="group" aria-label="run the phase gate">
      <div className="split">
        <label className="field">
          <span>Phase completing</span>
          <input value={completing} onChange={(e) => setCompleting(e.target.value)} />
        </label>
        <label className="field">
          <span>Phase starting</span>
          <input value={starting} onChange={(e) => setStarting(e.target.value)} />
        </label>
      </div>
      <fieldset className="plain">
        <legend className="muted">Artifacts the last phase must have produced</legend>
        {artifacts.length === 0 && <p className="muted">The team has no artifacts yet.</p>}
        <div className="check-list">
          {artifacts.map((a) => (
            <label key={a.id} className="check" title={a.id}>
              <input type="checkbox" checked={expected.includes(a.id)} onChange={(e) => setExpected(toggled(expected, a.id, e.target.checked))} />
              <span className="clip mono">{a.id}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <fieldset className="plain">
        <legend className="muted">Members that must be idle</legend>
        {roster.length === 0 && <p className="muted">The roster is empty.</p>}
        <div className="check-list">
          {roster.map((m) => (
            <label key={m.name} className="check">
              <input type="checkbox" checked={idleNames.includes(m.name)} onChange={(e) => setIdle(toggled(idleNames, m.name, e.target.checked))} />
              <span className="clip">
                {m.name} <span className="muted">({m.status})</span>
              </span>
            </label>
          ))}
        </div>
      </fieldset>
      <div className="row">
        <button type="button" className="primary small" disabled={gate.isPending} onClick={() => gate.mutate()}>
          {gate.isPending ? "Checking…" : "Run the gate"}
        </button>
      </div>
      {gate.data && <Report report={gate.data} />}
      {gate.error && (
        <p className="form-error" role="alert">
          {gate.error.message}
        </p>
      )}
    </div>
  );
}

/**
 * Beside a team spawn the phase gate refused (docs/dashboard.md#a-fix-beside-every-problem): run the gate here, or turn
 * enforcement off for the team (Settings' team option, for those who may change it), then start the member again.
 * `again` is a submit button of the spawn form, so starting again sends what the form holds.
 */
export function GateFix({ team, error, again }: { team: string; error: unknown; again: string }) {
  const refusal = gateRefusal(error);
  const { may, who } = usePermissions(team);
  const settings = useUpdateTeamSettings(team);
  const [running, setRunning] = useState(false);
  const [cleared, setCleared] = useState<string | null>(null);
  if (!refusal) return null;
  return (
    <section className="gate-fix" aria-label="phase gate" data-testid="gate-fix">
      <p role="alert">
        Team <strong>{team}</strong> enforces the phase gate: {refusal.batches} spawn batch{refusal.batches === 1 ? " has" : "es have"} started and no gate has
        passed since the last one began. Check the last phase, or turn enforcement off for the team.
      </p>
      <div className="row wrap">
        <button type="button" aria-expanded={running} onClick={() => setRunning(!running)}>
          Run the phase gate…
        </button>
        {may("team.settings") === false ? (
          <span className="muted">
            Only {who("team.settings")} may turn enforcement off (<Link href="/settings">Settings</Link>).
          </span>
        ) : (
          <button
            type="button"
            disabled={settings.isPending}
            onClick={() => settings.mutate({ gateEnforcement: "off" }, { onSuccess: () => setCleared("Enforcement is off for the team.") })}
          >
            Turn enforcement off for {team}
          </button>
        )}
      </div>
      {running && <RunGate team={team} batches={refusal.batches} onPassed={() => setCleared("The gate passed.")} />}
      {settings.error && (
        <p className="form-error" role="alert">
          {settings.error.message}
        </p>
      )}
      {cleared && (
        <p className="row" role="status">
          {cleared}
          <button type="submit" className="primary small">
            {again}
          </button>
        </p>
      )}
    </section>
  );
}
