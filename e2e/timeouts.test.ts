/**
 * Contract deadlines are stored and enforced by the hub's scheduler, also after a restart.
 */
import { afterAll, describe, expect, it, vi } from "vitest";
import { api, startHub, tempDataDir, type HubProcess } from "./helpers/hub-process.ts";
import { query } from "./helpers/db-snapshot.ts";

const hubs: HubProcess[] = [];
afterAll(async () => Promise.all(hubs.map((h) => h.kill())));

async function start(dataDir = tempDataDir("timeouts")) {
  const hub = await startHub(dataDir);
  hubs.push(hub);
  return hub;
}

async function contract(hub: HubProcess, id: string) {
  return (await api(hub, "GET", `/api/contracts/${id}`)).body as { status: string; statusReason: string | null };
}

/** The contract once the hub's scheduler has failed it. */
function failed(hub: HubProcess, id: string, timeout: number) {
  return vi.waitFor(
    async () => {
      const c = await contract(hub, id);
      expect(c.status).toBe("failed");
      return c;
    },
    { timeout, interval: 50 },
  );
}

describe("contract timeouts", () => {
  it("fails a contract with timeoutMs 500 with reason timeout", async () => {
    const hub = await start();
    const created = await api(hub, "POST", "/api/contracts", { id: "quick", title: "Be quick", assignee: "dev", timeoutMs: 500 });
    expect(created.body.status).toBe("ready");
    const before = Date.now();
    expect((await contract(hub, "quick")).status).toBe("ready");
    const after = await failed(hub, "quick", 5000);
    expect(after).toMatchObject({ status: "failed", statusReason: "timeout" });
    expect(Date.now() - before).toBeLessThan(4000);
    const [e] = query<{ principal: string; payload: string }>(
      hub.dbFile,
      `SELECT principal, payload FROM Event WHERE type = 'contract.status_changed' AND subject = 'contract:quick' ORDER BY id DESC LIMIT 1`,
    );
    expect(e.principal).toBe("scheduler");
    expect(JSON.parse(e.payload)).toMatchObject({ from: "ready", to: "failed", reason: "timeout" });
  });

  it("still fails it when the hub is killed and restarted before the deadline", async () => {
    const dataDir = tempDataDir("timeouts-restart");
    const first = await start(dataDir);
    const due = Date.now() + 6000;
    await api(first, "POST", "/api/contracts", { id: "survivor", title: "Outlive a crash", assignee: "dev", timeoutMs: 6000 });
    await first.kill("SIGKILL");
    const second = await start(dataDir);
    // On a loaded machine the restart itself can outlast the deadline; then it must already have failed.
    const onRestart = await contract(second, "survivor");
    if (Date.now() < due - 500) expect(onRestart.status).toBe("ready");
    const after = await failed(second, "survivor", 12_000);
    expect(after).toMatchObject({ status: "failed", statusReason: "timeout" });
  });

  it("fails what fell due while the hub was down, right after it starts", async () => {
    const dataDir = tempDataDir("timeouts-down");
    const first = await start(dataDir);
    const { deadlineAt } = (await api(first, "POST", "/api/contracts", { id: "missed", title: "Due while down", assignee: "dev", timeoutMs: 300 })).body;
    await api(first, "POST", "/api/contracts", { id: "later", title: "Due much later", assignee: "dev", timeoutMs: 600_000 });
    await first.kill("SIGTERM");
    // Restarted only once the deadline it stored has passed, so the contract fell due while the hub was down.
    await vi.waitFor(() => expect(Date.now()).toBeGreaterThan(Date.parse(deadlineAt)), { interval: 20 });
    const second = await start(dataDir);
    const missed = await failed(second, "missed", 3000);
    expect(missed).toMatchObject({ status: "failed", statusReason: "timeout" });
    expect((await contract(second, "later")).status).toBe("ready");
  });
});
