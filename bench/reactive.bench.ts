/** Reactive-layer figures (docs/domain.md): staleness, snapshots, rollback and diff on a large team; pipeline throughput, and what the runner adds to a commit it has nothing to do for. */
import { inTempDir, openHub } from "./lib/temp-db.ts";
import { buildBigTeam } from "./reactive/big-team.ts";
import { lineageFigures, staleFigure } from "./reactive/lineage-figures.ts";
import { commitDrainFigure } from "./reactive/commit-drain-figure.ts";
import { pipelineFigure } from "./reactive/pipeline-figure.ts";
import { snapshotFigures } from "./reactive/snapshot-figures.ts";

export default async function reactive(): Promise<void> {
  await inTempDir(async (dir) => {
    const hub = openHub(dir);
    try {
      const team = await buildBigTeam(hub);
      await lineageFigures(hub, team);
      await staleFigure(hub, team);
      await snapshotFigures(hub, team);
    } finally {
      hub.close();
    }
  });
  await pipelineFigure();
  await commitDrainFigure();
}
