/**
 * One hub process's worth of publishing for the two-hubs figure: argv url prefix count team warmUp. Publishes `warmUp`
 * versions, says it is ready and waits for a line on stdin, then publishes `count` more, spread over 20 artifacts of
 * `team` named `<prefix>-<n>`, through the service layer, and prints the wall time of those in ms.
 */
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { publishArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { pgHub } from "./pg-bench-db.ts";

const [url, prefix, count, team, warmUp] = process.argv.slice(2);
const hub = pgHub(url, prefix);
const input = (i: number) =>
  PublishArtifactInput.parse({ team, id: `${prefix}-${i % 20}`, type: "test-results", data: { total: 10, passed: i % 10, failed: 10 - (i % 10) } });
// Warm the JIT and the pool outside the timed part.
for (let i = 0; i < Number(warmUp); i++) await publishArtifact(hub, OPERATOR, input(i));
process.stdout.write("ready\n");
await new Promise<void>((r) => process.stdin.once("data", () => r()));
const t0 = performance.now();
for (let i = 0; i < Number(count); i++) await publishArtifact(hub, OPERATOR, input(i));
process.stdout.write(`${performance.now() - t0}\n`);
await hub.db.close();
