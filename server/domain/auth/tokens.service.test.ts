import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CreateTokenInput, RevokeTokensInput } from "../../../lib/api/tokens.ts";
import { ListEventsInput } from "../../../lib/api/teams.ts";
import { listEvents } from "../events/events.service.ts";
import { refusal, refusedWithoutWriting } from "../../testing/refusals.ts";
import { snapshotTables, tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { OPERATOR_TOKEN_FILE } from "../../data-dir.ts";
import { sql } from "../../db/sql.ts";
import { authenticate, createToken, ensureOperatorToken, issueSessionToken, listTokens, readOperatorToken, revokeTokens, tokenHash } from "./tokens.service.ts";

let hub: TempHub;
let dataDir: string;
beforeEach(async () => {
  hub = await tempHub();
  dataDir = path.join(hub.dir, "data");
});
afterEach(() => hub.close());

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const issue = (input: Record<string, unknown>, actor: Principal = OPERATOR) => createToken(hub, actor, CreateTokenInput.parse(input));
const revoke = (name: string, actor: Principal = OPERATOR) => revokeTokens(hub, actor, RevokeTokensInput.parse({ name }));

const tokenRows = async () => (await snapshotTables(hub)).Token as Array<{ principal: string; hash: string; label: string; revokedAt: string | null }>;

describe("operator token", () => {
  it("is created once in a 0600 file and reused", async () => {
    const secret = await ensureOperatorToken(hub, dataDir);
    const file = path.join(dataDir, OPERATOR_TOKEN_FILE);
    expect(secret).toMatch(/^thop_[A-Za-z0-9_-]{32}$/);
    expect(fs.readFileSync(file, "utf8")).toBe(`${secret}\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    expect(await ensureOperatorToken(hub, dataDir)).toBe(secret);
    expect(await tokenRows()).toMatchObject([{ principal: "operator", hash: sha256(secret), label: "operator token file", revokedAt: null }]);
    expect(await authenticate(hub, secret)).toEqual({ name: "operator", kind: "operator" });
  });

  it("retires the old token when the file is replaced", async () => {
    const old = await ensureOperatorToken(hub, dataDir);
    fs.writeFileSync(path.join(dataDir, OPERATOR_TOKEN_FILE), "thop_replaced-by-hand\n");
    expect(await ensureOperatorToken(hub, dataDir)).toBe("thop_replaced-by-hand");
    expect((await refusal(authenticate(hub, old))).code).toBe("unauthorized");
    expect(await authenticate(hub, "thop_replaced-by-hand")).toEqual({ name: "operator", kind: "operator" });
    const rows = await tokenRows();
    expect(rows.map((r) => ({ hash: r.hash, revoked: r.revokedAt !== null }))).toEqual([
      { hash: sha256(old), revoked: true },
      { hash: sha256("thop_replaced-by-hand"), revoked: false },
    ]);
  });

  it("replaces an emptied file with a fresh token instead of accepting an empty one", async () => {
    const old = await ensureOperatorToken(hub, dataDir);
    const file = path.join(dataDir, OPERATOR_TOKEN_FILE);
    fs.writeFileSync(file, "  \n");
    const fresh = await ensureOperatorToken(hub, dataDir);
    expect(fresh).toMatch(/^thop_[A-Za-z0-9_-]{32}$/);
    expect(fresh).not.toBe(old);
    expect(fs.readFileSync(file, "utf8")).toBe(`${fresh}\n`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await tokenRows()).some((r) => r.hash === sha256(""))).toBe(false);
    expect((await refusal(authenticate(hub, old))).code).toBe("unauthorized");
  });

  it("is replaced, never revoked: revoking is refused, and a token revoked earlier is replaced at start", async () => {
    const old = await ensureOperatorToken(hub, dataDir);
    const err = await refusedWithoutWriting(hub, () => revokeTokens(hub, OPERATOR, { name: "operator" }));
    expect(err.message).toContain(`delete the data directory's ${OPERATOR_TOKEN_FILE} file and restart the hub`);
    await hub.db.write("test.revoke", "test", (tx) => tx.run(sql`UPDATE "Token" SET "revokedAt" = ${tx.now} WHERE "principal" = 'operator'`));
    const fresh = await ensureOperatorToken(hub, dataDir);
    expect(fresh).not.toBe(old);
    expect(await authenticate(hub, fresh)).toEqual({ name: "operator", kind: "operator" });
  });
});

describe("issued tokens", () => {
  it("are issued by operators only, shown once and stored as a hash", async () => {
    const before = await snapshotTables(hub);
    const err = await refusal(issue({ name: "alice" }, { name: "bob", kind: "member" }));
    expect(err).toMatchObject({ code: "forbidden", status: 403, message: "'bob' (member) may not issue tokens: only the operator may" });
    expect(await snapshotTables(hub)).toEqual(before);

    const t = await issue({ name: "alice", label: "laptop" });
    expect(t).toEqual({ principal: "alice", kind: "member", label: "laptop", token: expect.stringMatching(/^thm_[A-Za-z0-9_-]{32}$/) });
    const stored = JSON.stringify(await snapshotTables(hub));
    expect(stored).not.toContain(t.token);
    expect(await tokenRows()).toMatchObject([{ principal: "alice", hash: sha256(t.token), label: "laptop", revokedAt: null }]);
    expect((await snapshotTables(hub)).Principal).toMatchObject([{ name: "alice", kind: "member" }]);
  });

  it("authenticate as their principal until revoked", async () => {
    const a1 = await issue({ name: "alice" });
    const a2 = await issue({ name: "alice" });
    const agent = await issue({ name: "ci-bot", kind: "agent" });
    expect(a1.token).not.toBe(a2.token);
    expect(agent.token).toMatch(/^tha_/);
    expect(await authenticate(hub, a1.token)).toEqual({ name: "alice", kind: "member" });
    expect(await authenticate(hub, agent.token)).toEqual({ name: "ci-bot", kind: "agent" });

    expect(await revoke("alice")).toEqual({ revoked: 2 });
    for (const t of [a1, a2]) {
      expect(await refusal(authenticate(hub, t.token))).toMatchObject({ code: "unauthorized", status: 401, message: "the bearer token is unknown or revoked" });
    }
    expect((await authenticate(hub, agent.token)).name).toBe("ci-bot");
    expect(await revoke("alice")).toEqual({ revoked: 0 });
  });

  it("refuses unknown tokens", async () => {
    await issue({ name: "alice" });
    expect((await refusal(authenticate(hub, "thm_not-a-real-token"))).code).toBe("unauthorized");
  });

  it("reserve the name 'operator'", async () => {
    const err = await refusedWithoutWriting(hub, () => issue({ name: "operator" }));
    expect(err).toMatchObject({ code: "conflict", details: { field: "name" } });
    expect(err.message).toBe("name: 'operator' is reserved for people at the dashboard and CLI");
  });

  it("keep a principal's kind", async () => {
    await issue({ name: "alice" });
    const err = await refusedWithoutWriting(hub, () => issue({ name: "alice", kind: "agent" }));
    expect(err).toMatchObject({ code: "conflict", message: "kind: principal 'alice' exists as member, not agent" });
  });

  it("can be revoked by operators only", async () => {
    const t = await issue({ name: "alice" });
    const err = await refusedWithoutWriting(hub, () => revoke("alice", { name: "alice", kind: "member" }));
    expect(err).toMatchObject({ code: "forbidden", message: "'alice' (member) may not revoke tokens: only the operator may" });
    expect((await authenticate(hub, t.token)).name).toBe("alice");
  });

  it("can be revoked by label, leaving the principal's other tokens working", async () => {
    const laptop = await issue({ name: "alice", label: "laptop" });
    const ci = await issue({ name: "alice", label: "ci" });
    expect(await revokeTokens(hub, OPERATOR, RevokeTokensInput.parse({ name: "alice", label: "laptop" }))).toEqual({ revoked: 1 });
    expect((await refusal(authenticate(hub, laptop.token))).code).toBe("unauthorized");
    expect((await authenticate(hub, ci.token)).name).toBe("alice");
  });
});

describe("the event log", () => {
  it("records issued and revoked tokens as hub-wide events, never the secret", async () => {
    const secret = await ensureOperatorToken(hub, dataDir);
    await ensureOperatorToken(hub, dataDir);
    const t = await issue({ name: "alice", label: "laptop" });
    await revoke("alice");
    await revoke("alice");
    const logged = await listEvents(hub, OPERATOR, ListEventsInput.parse({ hub: true }));
    expect(logged.events.map((e) => [e.teamId, e.type, e.subject, e.payload])).toEqual([
      [null, "token.revoked", "principal:alice", { principal: "alice", count: 1, hashes: [tokenHash(t.token)] }],
      [null, "token.issued", "principal:alice", { principal: "alice", kind: "member", label: "laptop" }],
      [null, "token.issued", "principal:operator", { principal: "operator", kind: "operator", label: "operator token file" }],
    ]);
    const text = JSON.stringify((await snapshotTables(hub)).Event);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(t.token);
    expect((await listEvents(hub, OPERATOR, ListEventsInput.parse({ team: "default" }))).events).toEqual([]);
  });
});

describe("session tokens", () => {
  it("a new session token retires the earlier one with a token.revoked event naming its hash, so live connections close", async () => {
    const first = await issueSessionToken(hub, { name: "worker", kind: "member" });
    const second = await issueSessionToken(hub, { name: "worker", kind: "member" });
    await expect(authenticate(hub, first)).rejects.toMatchObject({ code: "unauthorized" });
    expect(await authenticate(hub, second)).toMatchObject({ name: "worker", sessionId: "worker" });
    const revoked = (await listEvents(hub, OPERATOR, ListEventsInput.parse({ hub: true, type: "token.revoked" }))).events;
    expect(revoked.map((e) => e.payload)).toEqual([{ principal: "worker", count: 1, hashes: [sha256(first)] }]);
  });
});

describe("for the settings page", () => {
  it("gives the operator token to an operator only", async () => {
    const secret = await ensureOperatorToken(hub, dataDir);
    expect(await readOperatorToken(hub, OPERATOR, dataDir)).toEqual({ token: secret, file: path.join(dataDir, OPERATOR_TOKEN_FILE) });
    for (const who of [
      { name: "alice", kind: "member" },
      { name: "ci-bot", kind: "agent" },
    ] as Principal[]) {
      expect(await refusal(readOperatorToken(hub, who, dataDir))).toMatchObject({
        code: "forbidden",
        message: `'${who.name}' (${who.kind}) may not read the operator token: only the operator may`,
        details: { rule: "operator", operation: "tokens.read_operator" },
      });
    }
    fs.rmSync(path.join(dataDir, OPERATOR_TOKEN_FILE));
    expect((await refusal(readOperatorToken(hub, OPERATOR, dataDir))).code).toBe("not_found");
  });

  it("lists the tokens that still work, without secrets, to operators only", async () => {
    await ensureOperatorToken(hub, dataDir);
    const alice = await issue({ name: "alice", label: "laptop" });
    await issue({ name: "ci-bot", kind: "agent" });
    await issue({ name: "bob" });
    await revoke("bob");
    const list = await listTokens(hub, OPERATOR);
    expect(list).toEqual([
      { principal: "alice", kind: "member", label: "laptop", createdAt: expect.any(Date) },
      { principal: "ci-bot", kind: "agent", label: "", createdAt: expect.any(Date) },
      { principal: "operator", kind: "operator", label: "operator token file", createdAt: expect.any(Date) },
    ]);
    expect(JSON.stringify(list)).not.toContain(alice.token);
    const err = await refusedWithoutWriting(hub, () => listTokens(hub, { name: "alice", kind: "member" }));
    expect(err).toMatchObject({ code: "forbidden", message: "'alice' (member) may not list tokens: only the operator may" });
  });
});
