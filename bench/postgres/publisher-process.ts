/**
 * One hub process's worth of publishing for the two-hubs figure, through the service layer, in the exchange of
 * ./publisher-protocol.ts.
 */
import { PublishArtifactInput } from "../../lib/api/artifacts.ts";
import { publishArtifact } from "../../server/domain/artifacts/artifacts.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { pgHub } from "./pg-bench-db.ts";
import { publishOf, publisherArgs, runPublisher } from "./publisher-protocol.ts";

const args = publisherArgs();
const hub = pgHub(args.url, args.prefix);
await runPublisher(
  (i) => publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ team: args.team, type: "test-results", ...publishOf(args.prefix, i) })),
  args,
);
await hub.db.close();
