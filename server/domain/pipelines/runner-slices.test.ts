/** The runner's slices (runner.ts): many fired rules in one transaction, each in a part of its own, and a lazy cursor. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { PublishArtifactInput } from "../../../lib/api/artifacts.ts";
import { CreatePipelineInput, PipelineLogInput } from "../../../lib/api/pipelines.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import type { Sql } from "../../db/connection.ts";
import type { Database } from "../../db/database.ts";
import { sql, type Query } from "../../db/sql.ts";
import type { PipelineCursorRow } from "../../db/rows.ts";
import { publishArtifact } from "../artifacts/artifacts.service.ts";
import { inboxOf } from "../chat/messages.ts";
import { OPERATOR } from "../principal.ts";
import { createPipeline, getPipeline } from "./pipelines.service.ts";
import { PipelineRunner } from "./runner.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const publish = (id: string) => publishArtifact(hub, OPERATOR, PublishArtifactInput.parse({ id, type: "custom", data: { id } }));
const storedCursor = () =>
  hub.db.read(
    async (s) => (await s.get<Pick<PipelineCursorRow, "lastEventId">>(sql`SELECT "lastEventId" FROM "PipelineCursor" WHERE "id" = 1`))?.lastEventId ?? null,
  );
const pipelineOn = (id: string, team?: string) =>
  createPipeline(
    hub,
    OPERATOR,
    CreatePipelineInput.parse({
      id,
      team,
      rules: [{ trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "qa", message: "${artifact.id}" } }],
    }),
  );
/** The hub's database with every statement of its reads noted in `texts`. */
function readsNoted(texts: string[]): Database {
  const noting = (s: Sql): Sql => ({
    dialect: s.dialect,
    all: (q: Query) => (texts.push(q.text), s.all(q)),
    get: (q: Query) => (texts.push(q.text), s.get(q)),
    run: (q: Query) => (texts.push(q.text), s.run(q)),
  });
  return Object.assign(Object.create(hub.db) as Database, { read: <T>(fn: (s: Sql) => Promise<T>) => hub.db.read((s) => fn(noting(s))) });
}
const outcomes = async (id: string, team?: string) =>
  (await getPipeline(hub, PipelineLogInput.parse({ id, team, limit: 500 }))).log.map((x) => `${x.rule}:${x.outcome}`).sort();

describe("the pipeline runner's slices", () => {
  it("undoes a failing action alone: the rules beside it in the same transaction commit, and the failure is logged", async () => {
    await createPipeline(
      hub,
      OPERATOR,
      CreatePipelineInput.parse({
        id: "p",
        rules: [
          { trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "qa", message: "before ${artifact.id}" } },
          { trigger: { type: "artifact_published" }, action: { type: "reopen_contract", contractId: "missing", reason: "nope" } },
          { trigger: { type: "artifact_published" }, action: { type: "notify_session", target: "qa", message: "after ${artifact.id}" } },
        ],
      }),
    );
    await publish("a");
    await publish("b");
    await new PipelineRunner(hub).drain();
    expect(await outcomes("p")).toEqual(["0:executed", "0:executed", "1:failed", "1:failed", "2:executed", "2:executed"]);
    const texts = (await hub.db.read((s) => inboxOf(s, "default", "qa"))).map((m) => m.text).sort();
    expect(texts).toEqual(["after a", "after b", "before a", "before b"]);
    // The events of the messages were caused by the publishes, by the pipeline's creator; nothing of the failed rule is logged.
    const sent = hub.events.filter((e) => e.type === "message.sent");
    expect(sent.map((e) => [e.principal, e.depth])).toEqual(sent.map(() => [OPERATOR.name, 1]));
    expect(hub.events.filter((e) => e.type === "contract.status_changed")).toEqual([]);
    // A second drain finds everything done.
    await new PipelineRunner(hub).drain();
    expect((await outcomes("p")).length).toBe(6);
  });

  it("with no active pipeline, reads neither the log nor the cursor, and a pipeline created then runs on what follows alone", async () => {
    for (const id of ["a", "b", "c"]) await publish(id);
    const texts: string[] = [];
    const runner = new PipelineRunner({ ...hub, db: readsNoted(texts) });
    await runner.drain();
    expect(texts.filter((t) => /"Event" WHERE|"PipelineCursor"/.test(t))).toEqual([]);
    expect(await storedCursor()).toBeNull();
    await pipelineOn("p");
    await publish("d");
    await runner.drain();
    expect(await outcomes("p")).toEqual(["0:executed"]);
    expect(await storedCursor()).toBe(hub.events.at(-1)!.id);
  });

  it("reads the rules only of pipelines an event may concern, and once caught up with nothing to write, does not read again", async () => {
    await pipelineOn("elsewhere", "other");
    const texts: string[] = [];
    const runner = new PipelineRunner({ ...hub, db: readsNoted(texts) });
    await runner.drain();
    expect(texts.filter((t) => t.includes(`"rules"`))).toHaveLength(1);
    texts.length = 0;
    await publish("a");
    await runner.drain();
    expect(texts.filter((t) => t.includes(`"rules"`))).toEqual([]);
    expect(texts.filter((t) => t.includes(`FROM "Event" WHERE`))).toHaveLength(1);
    expect(await outcomes("elsewhere", "other")).toEqual([]);
  });

  it("started on the bus, drains after the committing write has returned, not inside its fan-out", async () => {
    await pipelineOn("p");
    const texts: string[] = [];
    const runner = new PipelineRunner({ ...hub, db: readsNoted(texts) });
    runner.start(hub.bus);
    try {
      await runner.kick();
      expect(texts.length).toBeGreaterThan(0);
      texts.length = 0;
      await publish("a");
      expect(texts).toEqual([]);
      await expect.poll(() => outcomes("p")).toEqual(["0:executed"]);
    } finally {
      await runner.stop();
    }
  });

  it("moves the cursor in memory past events no pipeline is concerned with, and in the database with the next slice", async () => {
    // A pipeline of another team is active: the events of this one concern no pipeline.
    await pipelineOn("elsewhere", "other");
    const runner = new PipelineRunner(hub);
    await runner.drain();
    const before = await storedCursor();
    expect(before).not.toBeNull();
    for (const id of ["a", "b", "c"]) await publish(id);
    await runner.drain();
    expect(await storedCursor()).toBe(before);
    await pipelineOn("p");
    await publish("d");
    await runner.drain();
    // The slice that ran the rule stored the cursor, and the next one (the events the action wrote) moved it on.
    expect(await storedCursor()).toBe(hub.events.at(-1)!.id);
    // A runner that starts afresh (a restart) finds the rule done: exactly once.
    await new PipelineRunner(hub).drain();
    expect(await outcomes("p")).toEqual(["0:executed"]);
  });
});
