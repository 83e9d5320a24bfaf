import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EventBus } from "../../events/bus.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { artifactReaders } from "../artifacts/artifacts.service.ts";
import type { Principal } from "../principal.ts";
import { kit, type Kit } from "../../testing/snapshot-kit.ts";
import { readGate } from "./gate-state.ts";
import type { GateCheck, GateReport } from "../../../lib/api/gate.ts";

let hub: TempHub;
let k: Kit;
beforeEach(async () => {
  hub = await tempHub();
  k = kit(hub);
});
afterEach(() => hub.close());

const member = (name: string): Principal => ({ name, kind: "member" });
const check = <N extends GateCheck["check"]>(r: GateReport, name: N) => r.checks.find((c): c is Extract<GateCheck, { check: N }> => c.check === name)!;
const failing = (r: GateReport) => r.checks.filter((c) => !c.passed).map((c) => c.check);
const gateCount = async () => (await hub.db.read((sql) => readGate(sql, "default"))).gateCount;

describe("a passing gate", () => {
  it("reports all four checks, counts the gate in the database and records the caller's read", async () => {
    await k.publish({ id: "conventions", data: { style: "kebab-case" } });
    await k.join("setup");
    await k.join("api-dev", "busy", "routes");
    await k.read("conventions", undefined, member("api-dev"));
    const report = await k.gate({
      phase_completing: "Phase 0: Foundation",
      phase_starting: "Phase 1: Routes",
      expected_artifacts: ["conventions"],
      expected_idle: ["setup"],
      expected_readers: { conventions: ["api-dev"] },
    });
    expect(report).toEqual({
      gate: "Phase 0: Foundation → Phase 1: Routes",
      passed: true,
      checks: [
        { check: "artifacts_exist", passed: true, details: { expected: ["conventions"], found: [{ artifactId: "conventions", version: 1 }], missing: [] } },
        {
          check: "artifacts_valid",
          passed: true,
          details: { results: [{ artifactId: "conventions", version: 1, valid: true }], readAs: "operator", skipped: [] },
        },
        {
          check: "members_idle",
          passed: true,
          details: { checked: "named members", members: [{ name: "setup", status: "idle", currentTask: null, idle: true }], notOnRoster: [] },
        },
        {
          check: "artifacts_read",
          passed: true,
          details: {
            artifacts: [{ artifactId: "conventions", currentVersion: 1, expected: ["api-dev"], readCurrent: ["api-dev"], readOlderOnly: [], notRead: [] }],
          },
        },
      ],
      recommendation: "All four checks passed: 'Phase 1: Routes' can start now; the gate count is 1, so the next spawn batch is allowed.",
      gateCount: 1,
      at: expect.any(Date),
    });
    expect(await hub.db.read((sql) => readGate(sql, "default"))).toEqual({
      gateCount: 1,
      gatesAtLastBatch: 0,
      spawnBatchCount: 0,
      lastSpawnAt: null,
      lastGateAt: report.at,
    });
    const { reads } = await artifactReaders(hub, { team: "default", id: "conventions" });
    expect(reads.map((r) => [r.reader, r.version])).toEqual([
      ["operator", 1],
      ["api-dev", 1],
    ]);
    expect(hub.events.at(-1)).toMatchObject({
      type: "phase_gate.passed",
      subject: "team:default",
      payload: { gate: report.gate, passed: true, failedChecks: [], gateCount: 1, recommendation: report.recommendation },
    });
  });
});

describe("each check fails on its own", () => {
  beforeEach(async () => {
    await k.publish({ id: "conventions", data: { style: "kebab-case" } });
    await k.join("setup");
  });

  it("artifacts_exist: an artifact that does not exist, has no active version, or was archived by a reset", async () => {
    await k.snapshot({ id: "before-late" });
    await k.publish({ id: "late" });
    await k.rollback("before-late");
    const report = await k.gate({ expected_artifacts: ["conventions", "ghost", "late"] });
    expect(failing(report)).toEqual(["artifacts_exist"]);
    expect(check(report, "artifacts_exist").details).toEqual({
      expected: ["conventions", "ghost", "late"],
      found: [{ artifactId: "conventions", version: 1 }],
      missing: [
        { artifactId: "ghost", reason: "'ghost' does not exist: publish it" },
        { artifactId: "late", reason: "'late' has no active version (all were rolled back): publish a new version" },
      ],
    });
    expect(check(report, "artifacts_valid").details).toMatchObject({ skipped: ["ghost", "late"] });
    expect(report).toMatchObject({
      passed: false,
      gateCount: 0,
      recommendation:
        "Do not start 'Phase 2' yet: 'ghost' does not exist: publish it; 'late' has no active version (all were rolled back): publish a new version. Then run phase_gate again.",
    });
    expect(hub.events.at(-1)).toMatchObject({ type: "phase_gate.failed", payload: { passed: false, failedChecks: ["artifacts_exist"], gateCount: 0 } });

    await k.publish({ id: "old" });
    await k.reset({ confirm: true, preserve_artifacts: ["conventions"] });
    const archived = await k.gate({ expected_artifacts: ["conventions", "old"] });
    expect(check(archived, "artifacts_exist").details.missing).toEqual([{ artifactId: "old", reason: "'old' was archived by a team reset: publish it again" }]);
    expect(await gateCount()).toBe(0);
  });

  it('artifacts_valid: empty data (null, {}, [], "") fails, and every checked artifact is read as the caller', async () => {
    const empties = { "e-null": null, "e-object": {}, "e-array": [], "e-string": "" };
    for (const [id, data] of Object.entries(empties)) await k.publish({ id, data });
    const report = await k.gate({ expected_artifacts: ["conventions", ...Object.keys(empties)] });
    expect(failing(report)).toEqual(["artifacts_valid"]);
    expect(check(report, "artifacts_valid").details.results).toEqual([
      { artifactId: "conventions", version: 1, valid: true },
      ...Object.keys(empties).map((artifactId) => ({ artifactId, version: 1, valid: false })),
    ]);
    expect(report.recommendation).toContain(`'e-null@v1' is empty (null, {}, [] or ""): publish a version with real content`);
    for (const id of ["conventions", ...Object.keys(empties)]) {
      expect((await artifactReaders(hub, { team: "default", id })).reads.map((r) => r.reader)).toEqual(["operator"]);
    }
  });

  it("members_idle: a busy member, a name not on the roster, and the whole roster when none are named", async () => {
    await k.join("api-dev", "busy", "routes");
    const named = await k.gate({ expected_idle: ["setup", "api-dev", "nobody"] });
    expect(failing(named)).toEqual(["members_idle"]);
    expect(check(named, "members_idle").details).toEqual({
      checked: "named members",
      members: [
        { name: "setup", status: "idle", currentTask: null, idle: true },
        { name: "api-dev", status: "busy", currentTask: "routes", idle: false },
      ],
      notOnRoster: ["nobody"],
    });
    expect(named.recommendation).toBe(
      "Do not start 'Phase 2' yet: wait until 'api-dev' is idle (it is busy: routes); 'nobody' is not on the roster: check the name. Then run phase_gate again.",
    );
    const whole = await k.gate({});
    expect(check(whole, "members_idle")).toMatchObject({
      passed: false,
      details: { checked: "whole roster", members: [{ name: "api-dev" }, { name: "setup" }] },
    });
    expect((await k.gate({ expected_idle: ["setup"] })).passed).toBe(true);
  });

  it("artifacts_read: a consumer that never read it, and one that read only an older version, reported apart", async () => {
    await k.read("conventions", 1, member("api-dev"));
    await k.publish({ id: "conventions", data: { style: "snake_case" } });
    await k.read("conventions", 2, member("qa-dev"));
    const report = await k.gate({ expected_artifacts: ["conventions"], expected_readers: { conventions: ["api-dev", "db-dev", "qa-dev"], ghost: ["qa-dev"] } });
    expect(failing(report)).toEqual(["artifacts_read"]);
    expect(check(report, "artifacts_read").details).toEqual({
      artifacts: [
        {
          artifactId: "conventions",
          currentVersion: 2,
          expected: ["api-dev", "db-dev", "qa-dev"],
          readCurrent: ["qa-dev"],
          readOlderOnly: [{ name: "api-dev", lastReadVersion: 1 }],
          notRead: ["db-dev"],
        },
        { artifactId: "ghost", currentVersion: null, expected: ["qa-dev"], readCurrent: [], readOlderOnly: [], notRead: ["qa-dev"] },
      ],
    });
    expect(report.recommendation).toBe(
      "Do not start 'Phase 2' yet: ask 'db-dev' to read 'conventions' (current v2); 'api-dev' read only v1 of 'conventions': have it read the current v2; 'ghost' does not exist: publish it. Then run phase_gate again.",
    );
    expect(check(await k.gate({}), "artifacts_read")).toEqual({
      check: "artifacts_read",
      passed: true,
      details: { note: "no expected_readers given: nothing to check" },
    });
  });
});

describe("the gate counter", () => {
  it("counts only passing gates and survives a restart", async () => {
    await k.join("busy-one", "busy");
    expect((await k.gate({})).gateCount).toBe(0);
    await k.join("busy-one", "idle");
    expect((await k.gate({})).gateCount).toBe(1);
    expect((await k.gate({})).gateCount).toBe(2);
    await hub.db.close();
    const reopened = hub.connect(new EventBus());
    try {
      expect((await reopened.read((sql) => readGate(sql, "default"))).gateCount).toBe(2);
      const again = kit({ ...hub, db: reopened });
      expect((await again.gate({})).gateCount).toBe(3);
    } finally {
      await reopened.close();
    }
  });
});

describe("bad input", () => {
  it("is refused naming the field and the rule, writing nothing", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ phase_completing: undefined }, "phase_completing", "invalid_type"],
      [{ phase_starting: "" }, "phase_starting", "too_small"],
      [{ phase_starting: "x".repeat(201) }, "phase_starting", "too_big"],
      [{ expected_artifacts: "conventions" }, "expected_artifacts", "invalid_type"],
      [{ expected_artifacts: ["Not An Id"] }, "expected_artifacts[0]", "invalid_format"],
      [{ expected_idle: ["ok", ""] }, "expected_idle[1]", "invalid_format"],
      [{ expected_readers: { conventions: "api-dev" } }, "expected_readers.conventions", "invalid_type"],
      [{ expected_readers: ["api-dev"] }, "expected_readers", "invalid_type"],
      [{ team: "no spaces" }, "team", "invalid_format"],
    ];
    for (const [input, field, rule] of cases) {
      const err = await refusedWithoutWriting(hub, () => k.gate(input));
      expect(err.code).toBe("invalid_input");
      expect(issues(err)[0]).toMatchObject({ field, rule });
      expect(err.message.startsWith(`${field}: `)).toBe(true);
    }
  });
});
