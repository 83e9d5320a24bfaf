/**
 * The phase gate (docs/domain.md#phase-gate): one transaction runs the four checks between two phases and returns a
 * report with a recommendation. A passing gate bumps the team's gate counter in the database,
 * which is what lets the next spawn batch start (spawn-batches.ts).
 */
import type { GateReport, PhaseGateInput } from "../../../lib/api/gate.ts";
import type { DomainDeps } from "../deps.ts";
import type { Principal } from "../principal.ts";
import { ensureTeam } from "../teams/teams.service.ts";
import { artifactsExist, artifactsRead, artifactsValid, loadGateArtifacts, membersIdle } from "./gate-checks.ts";
import { readGate, writeGate } from "./gate-state.ts";

function recommendation(passed: boolean, starting: string, gateCount: number, todo: string[]): string {
  if (passed) return `All four checks passed: '${starting}' can start now; the gate count is ${gateCount}, so the next spawn batch is allowed.`;
  return `Do not start '${starting}' yet: ${todo.join("; ")}. Then run phase_gate again.`;
}

export async function phaseGate(deps: DomainDeps, actor: Principal, input: PhaseGateInput): Promise<GateReport> {
  return deps.db.write("phase_gate", actor.name, async (tx) => {
    const team = input.team;
    await ensureTeam(tx, team);
    const ids = [...new Set([...input.expected_artifacts, ...Object.keys(input.expected_readers ?? {})])];
    const artifacts = await loadGateArtifacts(tx, team, ids);
    const outcomes = [
      artifactsExist(input.expected_artifacts, artifacts),
      await artifactsValid(tx, team, actor, input.expected_artifacts, artifacts),
      await membersIdle(tx, team, input.expected_idle),
      await artifactsRead(tx, input.expected_readers, artifacts),
    ];
    const checks = outcomes.map((o) => o.result);
    const passed = checks.every((c) => c.passed);
    const counters = await readGate(tx, team);
    if (passed) await writeGate(tx, team, { ...counters, gateCount: counters.gateCount + 1, lastGateAt: tx.now });
    const gateCount = counters.gateCount + (passed ? 1 : 0);
    const report: GateReport = {
      gate: `${input.phase_completing} → ${input.phase_starting}`,
      passed,
      checks,
      recommendation: recommendation(
        passed,
        input.phase_starting,
        gateCount,
        outcomes.flatMap((o) => o.todo),
      ),
      gateCount,
      at: tx.now,
    };
    await tx.emit({
      teamId: team,
      type: passed ? "phase_gate.passed" : "phase_gate.failed",
      subject: `team:${team}`,
      payload: {
        gate: report.gate,
        passed,
        failedChecks: checks.filter((c) => !c.passed).map((c) => c.check),
        gateCount,
        recommendation: report.recommendation,
      },
    });
    return report;
  });
}
