import { TeamHub } from "teamhub";

const hub = new TeamHub();

// One task in its own session, run to the end within a budget, a turn limit and a time limit.
const first = await hub.sessions.delegate({
  name: "fix-auth",
  task: "Fix the authentication bug in auth.ts",
  preset: "edit",
  maxCost: 1,
  maxTurns: 30,
  timeout: 120_000,
});
console.log(`${first.status}: ${first.response} ($${first.cost.toFixed(4)}, tools: ${first.toolsUsed.join(", ")})`);

// The parent judges the answer, then continues the same conversation or stops.
if (first.canContinue) {
  const second = await hub.sessions.continue({ name: "fix-auth", message: "Good, now add input validation" });
  console.log(`${second.status}: ${second.response}`);
}
const done = await hub.sessions.finish({ name: "fix-auth" });
console.log(`finished after ${done.turns} turns, $${done.cost.toFixed(4)}`);
