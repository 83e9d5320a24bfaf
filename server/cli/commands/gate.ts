/** phase-gate and team-reset (docs/domain.md#phase-gate). */
import type { Command } from "commander";
import { PhaseGateInput, TeamResetInput } from "../../../lib/api/gate.ts";
import { action, type Ctx } from "../action.ts";
import { checkedOption, collect, jsonOrFile } from "../options.ts";

type GateOpts = { completing: string; starting: string; artifact?: string[]; idle?: string[]; readers?: string };

export function register(program: Command) {
  program
    .command("phase-gate")
    .description("check a phase is really done before the next starts: artifacts exist and have data, workers idle, consumers read")
    .requiredOption("--completing <phase>", "the phase that just finished")
    .requiredOption("--starting <phase>", "the phase about to start")
    .option("--artifact <id>", "an artifact the finished phase must have produced (repeatable)", collect)
    .option("--idle <member>", "a member who must be idle (repeatable; default: the whole roster)", collect)
    .option("--readers <json|file>", 'who must have read what: {"artifact": ["member", …]}')
    .action(
      action(
        ({ hub, opts }: Ctx<GateOpts>) =>
          hub.gate.check({
            phase_completing: opts.completing,
            phase_starting: opts.starting,
            expected_artifacts: opts.artifact ?? [],
            expected_idle: opts.idle,
            expected_readers: checkedOption("--readers", PhaseGateInput.shape.expected_readers, jsonOrFile("--readers", opts.readers)),
          }),
        (r) => [`${r.passed ? "PASSED" : "FAILED"}: ${r.gate}`, ...r.checks.map((c) => `  ${c.passed ? "✓" : "✗"} ${c.check}`), r.recommendation].join("\n"),
      ),
    );
  program
    .command("team-reset")
    .description("clear the team's artifacts, contracts, roster, messages, pipelines and gate state, after an automatic snapshot")
    .option("--confirm", "required: yes, reset it")
    .option("--preserve <id>", "an artifact to keep (repeatable)", collect)
    .action(
      action(
        ({ hub, opts }: Ctx<{ confirm?: boolean; preserve?: string[] }>) =>
          hub.gate.reset({
            confirm: checkedOption("--confirm", TeamResetInput.shape.confirm, opts.confirm === true),
            preserve_artifacts: opts.preserve,
          }),
        (r) =>
          `reset team '${r.team}' (undo with: teamhub team-rollback ${r.snapshotId}${r.team === "default" ? "" : ` --team ${r.team}`})\n` +
          `  kept ${r.preserved.length} artifact(s); archived ${r.archived.artifacts} artifact(s), ${r.archived.messages} message(s); removed ${r.removed.contracts} contract(s), ${r.removed.members} member(s), ${r.removed.pipelines} pipeline(s)`,
      ),
    );
}
