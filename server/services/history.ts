/** The event log, snapshots with their rollback, replay and diff, and the phase gate. */
import type { Operations } from "../operations.ts";
import { eventsAfter, lastEventId, listEvents } from "../domain/events/events.service.ts";
import { deleteSnapshot, getSnapshot, listSnapshots, takeSnapshot } from "../domain/snapshots/snapshots.service.ts";
import { replay, replayPreview, rollback, rollbackPreview } from "../domain/snapshots/rollback.service.ts";
import { diff } from "../domain/snapshots/diff.ts";
import { phaseGate } from "../domain/gate/phase-gate.service.ts";
import { teamReset } from "../domain/gate/team-reset.service.ts";
import type { ServiceContext } from "./context.ts";

export const eventServices = ({ deps }: ServiceContext) =>
  ({
    list: (a, i) => listEvents(deps, a, i),
    /** `/ws`'s replay of what a client missed, for the teams it may see. */
    after: (i: { teams: string[]; after: number; limit: number }) => eventsAfter(deps, i),
    lastId: () => lastEventId(deps),
  }) satisfies Operations<"events"> & { after: unknown; lastId: unknown };

export const snapshotServices = ({ deps }: ServiceContext) =>
  ({
    take: (a, i) => takeSnapshot(deps, a, i),
    list: (_, i) => listSnapshots(deps, i),
    get: (_, i) => getSnapshot(deps, i),
    delete: (a, i) => deleteSnapshot(deps, a, i),
    rollback: (a, i) => rollback(deps, a, i),
    replay: (a, i) => replay(deps, a, i),
    /** What rollback / replay would do: the same command, rolled back at the end. */
    rollbackPreview: (a, i) => rollbackPreview(deps, a, i),
    replayPreview: (a, i) => replayPreview(deps, a, i),
    diff: (_, i) => diff(deps, i),
  }) satisfies Operations<"snapshots">;

export const gateServices = ({ deps }: ServiceContext) =>
  ({
    check: (a, i) => phaseGate(deps, a, i),
    reset: (a, i) => teamReset(deps, a, i),
  }) satisfies Operations<"gate">;
