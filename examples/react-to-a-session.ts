import { TeamHub } from "teamhub";

const hub = new TeamHub();
await hub.sessions.spawn({ name: "scribe", preset: "edit" });

// The turn's items as they happen: the model's text as it streams, each tool call and its result, then the end.
for await (const item of hub.session("scribe").stream("Write notes.md with today's plan, then list the directory")) {
  if (item.kind === "text") process.stdout.write(item.text);
  if (item.kind === "tool-use") console.log(`\n→ ${item.name} ${JSON.stringify(item.input)}`);
  if (item.kind === "tool-result") console.log(`← ${item.isError ? "failed" : "ok"}: ${item.content.split("\n")[0]}`);
  if (item.kind === "result") console.log(`\n${item.status} after ${item.turns} turns ($${item.costUsd.toFixed(4)})`);
}

await hub.sessions.stop({ name: "scribe" });
