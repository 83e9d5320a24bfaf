/**
 * Setup of the reactive figures: the large team, written with raw SQL through the hub's writer
 * connection in a few large transactions, then checked through the domain functions. Its time
 * and size are reported, not judged.
 */
import { DEFAULT_TEAM } from "../../lib/ids.ts";
import { createTeam } from "../../server/domain/teams/teams.service.ts";
import { OPERATOR } from "../../server/domain/principal.ts";
import { seeded } from "../lib/random.ts";
import { scalar } from "../lib/scalar.ts";
import { mb, ms } from "../lib/stats.ts";
import type { BenchHub } from "../lib/temp-db.ts";
import { timed } from "../lib/timing.ts";
import { CONTRACTS, planContracts, type PlannedContract } from "./contract-plan.ts";
import { directlyStale, expectedStale, type ExpectedStale } from "./expected-stale.ts";
import { ARTIFACTS, LAYERS, VERSIONS, WIDTH, planTeam, type TeamPlan } from "./team-plan.ts";
import { verifyTeam } from "./verify-team.ts";
import { writeArtifacts } from "./write-artifacts.ts";
import { writeContracts } from "./write-contracts.ts";

/** Every query after the setup parses its input as an adapter would, which names the default team. */
const TEAM = DEFAULT_TEAM;

export type BigTeam = { plan: TeamPlan; contracts: PlannedContract[]; stale: ExpectedStale };

export async function buildBigTeam(hub: BenchHub): Promise<BigTeam> {
  await createTeam(hub, OPERATOR, { id: TEAM });
  const { ms: setupMs, value: team } = await timed(async () => {
    const plan = planTeam(seeded(1));
    writeArtifacts(hub.sqlite.writer.raw, TEAM, plan, seeded(2));
    const contracts = planContracts(seeded(3));
    writeContracts(hub.sqlite.writer.raw, contracts);
    return { plan, contracts, stale: expectedStale(plan) };
  });
  const edges = scalar(hub.sqlite.reader.raw, `SELECT COUNT(*) FROM "LineageEdge"`);
  const dataBytes = scalar(hub.sqlite.reader.raw, `SELECT SUM("size") FROM "ArtifactVersion"`);
  const dbBytes = scalar(hub.sqlite.reader.raw, `SELECT page_count * page_size FROM pragma_page_count(), pragma_page_size()`);
  console.log(
    `reactive.setup: ${ARTIFACTS} artifacts × ${VERSIONS} versions in a lineage DAG of ${LAYERS} layers × ${WIDTH} (${edges} edges), ${CONTRACTS} contracts; ` +
      `${team.stale.size} artifacts stale (${directlyStale(team.stale)} directly); written in ${ms(setupMs)} (not timed); ` +
      `database ${mb(dbBytes)} (artifact data ${mb(dataBytes)}, ${(dataBytes / (ARTIFACTS * VERSIONS)).toFixed(0)} B per version)`,
  );
  await verifyTeam(hub, team);
  return team;
}
