/**
 * Hubs sharing one database (docs/hubs.md): each registers itself, beats a heartbeat, and watches the others'. A hub
 * whose heartbeat is older than the limit is lost: in one write, its live sessions become `interrupted` (any hub may
 * resume them) and the ones it had not started yet are queued, unowned, for another to admit. Writes are serial, so when
 * several hubs notice at once exactly one of them does it.
 */
import type { WriteTx } from "../../db/database.ts";
import { sql, values } from "../../db/sql.ts";
import { HubView } from "../../../lib/api/hubs.ts";
import type { HubRow, SessionRow } from "../../db/rows.ts";
import { authorize } from "../auth/capabilities.ts";
import type { DomainDeps } from "../deps.ts";
import { SUPERVISOR, type Principal } from "../principal.ts";
import { announceQueued, requeueYielded } from "../sessions/admission.ts";
import { interruptOrphan } from "../sessions/recovery.ts";
import { heldBy, moveTo } from "../sessions/sessions.repo.ts";
import { LIVE } from "../sessions/states.ts";

export type HubIdentity = Pick<HubRow, "id" | "url" | "host" | "pid" | "dataDir" | "version">;

/** `"status" IN (${LIVE_LIST})`: the live statuses, a parameter each, built once. */
const LIVE_LIST = values(LIVE);

export async function registerHub({ db }: DomainDeps, me: HubIdentity): Promise<void> {
  await db.write("hub.start", SUPERVISOR.name, async (tx) => {
    await tx.run(
      sql`INSERT INTO "Hub" ("id","url","host","pid","dataDir","version","startedAt","heartbeatAt","status","stoppedAt") VALUES (${me.id},${me.url},${me.host},${me.pid},${me.dataDir},${me.version},${tx.now},${tx.now},'live',NULL)
       ON CONFLICT ("id") DO UPDATE SET "url" = excluded."url", "host" = excluded."host", "pid" = excluded."pid", "dataDir" = excluded."dataDir",
         "version" = excluded."version", "startedAt" = excluded."startedAt", "heartbeatAt" = excluded."heartbeatAt", "status" = 'live', "stoppedAt" = NULL`,
    );
    await tx.emit({
      teamId: null,
      type: "hub.started",
      subject: `hub:${me.id}`,
      payload: { id: me.id, url: me.url, host: me.host, pid: me.pid, version: me.version },
    });
  });
}

/**
 * The heartbeat. It appends no event: it says only that the hub is still there, and one event every few seconds per
 * hub would bury the log. False when another hub has declared this one lost: its sessions are no longer its own.
 */
export async function beat({ db }: DomainDeps, id: string): Promise<boolean> {
  return db.write("hub.heartbeat", SUPERVISOR.name, async (tx) => {
    const r = await tx.run(sql`UPDATE "Hub" SET "heartbeatAt" = ${tx.now} WHERE "id" = ${id} AND "status" = 'live'`);
    return r.changes === 1;
  });
}

/**
 * `maxLive`: the writing hub's admission limit, which `session.queued` reports for the sessions a stopped or lost hub
 * leaves queued (docs/hubs.md#admission).
 */
export async function stopHub({ db }: DomainDeps, id: string, maxLive: number): Promise<void> {
  await db.write("hub.stop", SUPERVISOR.name, async (tx) => {
    const r = await tx.run(sql`UPDATE "Hub" SET "status" = 'stopped', "stoppedAt" = ${tx.now} WHERE "id" = ${id} AND "status" = 'live'`);
    if (r.changes === 0) return;
    // Sessions still waiting for a place here need not wait for this hub's return: any hub may admit them now.
    await tx.run(sql`UPDATE "Session" SET "hubId" = NULL WHERE "hubId" = ${id} AND "status" = 'queued'`);
    await requeueYielded(tx, heldBy(id), maxLive, true);
    await tx.emit({ teamId: null, type: "hub.stopped", subject: `hub:${id}`, payload: { id } });
  });
}

/** Declares lost every other live hub whose heartbeat is older than `lostAfterMs`; returns their ids. */
export async function sweepLostHubs({ db }: DomainDeps, lostAfterMs: number, maxLive: number): Promise<string[]> {
  return db.write("hub.sweep", SUPERVISOR.name, async (tx) => {
    const lost = await tx.all<HubRow>(
      sql`SELECT * FROM "Hub" WHERE "status" = 'live' AND "heartbeatAt" < ${new Date(tx.now.getTime() - lostAfterMs)} AND "id" <> ${tx.hub ?? ""} ORDER BY "id"`,
    );
    for (const h of lost) await declareLost(tx, h, lostAfterMs, maxLive);
    return lost.map((h) => h.id);
  });
}

async function declareLost(tx: WriteTx, h: HubRow, lostAfterMs: number, maxLive: number): Promise<void> {
  await tx.run(sql`UPDATE "Hub" SET "status" = 'lost', "stoppedAt" = ${tx.now} WHERE "id" = ${h.id}`);
  const live = await tx.all<SessionRow>(sql`SELECT * FROM "Session" WHERE "hubId" = ${h.id} AND "status" IN (${LIVE_LIST}) ORDER BY "pk"`);
  const interrupted: string[] = [];
  for (const s of live) {
    // Never started there: nothing to interrupt, and any hub may start it.
    if (s.status === "queued") {
      await tx.run(sql`UPDATE "Session" SET "hubId" = NULL WHERE "pk" = ${s.pk}`);
      continue;
    }
    // Admitted there but not launched: its place was on the lost hub, so it queues again, at the time it was first
    // queued (or given its place), for a hub with a free place to admit.
    if (s.status === "starting" && s.pid === null) {
      await moveTo(tx, s, "queued", `its hub ${h.id} stopped answering before it launched`, { hubId: null, queuedAt: s.queuedAt ?? s.updatedAt });
      await announceQueued(tx, s, maxLive);
      continue;
    }
    await interruptOrphan(tx, s, "hub_lost", `its hub ${h.id} stopped answering`);
    interrupted.push(s.name);
  }
  await requeueYielded(tx, heldBy(h.id), maxLive, true);
  await tx.emit({
    teamId: null,
    type: "hub.lost",
    subject: `hub:${h.id}`,
    payload: { id: h.id, url: h.url, heartbeatAt: h.heartbeatAt, lostAfterMs, interrupted },
  });
}

export async function listHubs({ db }: DomainDeps, actor: Principal): Promise<HubView[]> {
  return db.read(async (s) => {
    await authorize(s, actor, "hubs.list", { team: null });
    const hubs = await s.all<HubRow>(sql`SELECT * FROM "Hub" ORDER BY "startedAt", "id"`);
    const counts = await s.all<Pick<SessionRow, "hubId"> & { n: number }>(
      sql`SELECT "hubId", COUNT(*) AS n FROM "Session" WHERE "hubId" IS NOT NULL AND "status" IN (${LIVE_LIST}) GROUP BY "hubId"`,
    );
    const live = new Map(counts.map((c) => [c.hubId, Number(c.n)]));
    return hubs.map((h) => ({
      id: h.id,
      url: h.url,
      host: h.host,
      pid: h.pid,
      version: h.version,
      status: HubView.shape.status.parse(h.status),
      startedAt: h.startedAt,
      heartbeatAt: h.heartbeatAt,
      stoppedAt: h.stoppedAt,
      liveSessions: live.get(h.id) ?? 0,
      self: h.id === db.hub,
    }));
  });
}
