/**
 * Principals and their bearer tokens (docs/architecture.md#principals). Only sha256 hashes are stored; a secret is
 * shown once, when it is created. The operator token lives in the data directory so that the
 * CLI on the same machine can read it (`teamhub token`).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Sql } from "../../db/connection.ts";
import type { WriteTx } from "../../db/database.ts";
import { EMPTY, sql } from "../../db/sql.ts";
import type { PrincipalRow, TokenRow } from "../../db/rows.ts";
import { OPERATOR_TOKEN_FILE } from "../../data-dir.ts";
import { DomainError, conflict } from "../../errors.ts";
import type { DomainDeps } from "../deps.ts";
import { OPERATOR, type Principal } from "../principal.ts";
import { authorize } from "./capabilities.ts";
import { PrincipalKind, type IssuedToken, type OperatorToken, type TokenView } from "../../../lib/api/tokens.ts";

export const tokenHash = (secret: string) => createHash("sha256").update(secret).digest("hex");
const newSecret = (prefix: string) => `${prefix}_${randomBytes(24).toString("base64url")}`;

async function ensurePrincipal(s: Sql & { run: Sql["run"] }, name: string, kind: PrincipalKind, now: Date) {
  await s.run(sql`INSERT INTO "Principal" ("name","kind","createdAt") VALUES (${name},${kind},${now}) ON CONFLICT DO NOTHING`);
}

/** Reads the operator token from the data directory, creating it on first start; registers its hash. */
export async function ensureOperatorToken({ db }: DomainDeps, dataDir: string): Promise<string> {
  const file = path.join(dataDir, OPERATOR_TOKEN_FILE);
  fs.mkdirSync(dataDir, { recursive: true });
  let secret = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "";
  // A token revoked by an older hub version would lock the file out for good: replace it.
  const revoked = secret !== "" && (await db.read((s) => s.get(sql`SELECT 1 FROM "Token" WHERE "hash" = ${tokenHash(secret)} AND "revokedAt" IS NOT NULL`)));
  // A missing or emptied file gets a fresh token: an empty secret must never authenticate anyone.
  if (!secret || revoked) {
    secret = newSecret("thop");
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600 });
    fs.chmodSync(file, 0o600);
  }
  await db.write("token.operator", OPERATOR.name, async (tx) => {
    await ensurePrincipal(tx, OPERATOR.name, "operator", tx.now);
    // A replaced token file retires the previous operator token.
    await tx.run(
      sql`UPDATE "Token" SET "revokedAt" = ${tx.now} WHERE "principal" = ${OPERATOR.name} AND "hash" <> ${tokenHash(secret)} AND "revokedAt" IS NULL`,
    );
    const added = await tx.run(
      sql`INSERT INTO "Token" ("principal","hash","label","createdAt") VALUES (${OPERATOR.name},${tokenHash(secret)},'operator token file',${tx.now}) ON CONFLICT DO NOTHING`,
    );
    if (added.changes)
      await tx.emit({
        teamId: null,
        type: "token.issued",
        subject: `principal:${OPERATOR.name}`,
        payload: { principal: OPERATOR.name, kind: "operator", label: "operator token file" },
      });
  });
  return secret;
}

/**
 * The operator token, for the person at the dashboard to copy into the CLI or an MCP client on
 * another machine. Only an operator gets it: a member token never leads to the operator's powers.
 */
export async function readOperatorToken({ db }: DomainDeps, actor: Principal, dataDir: string): Promise<OperatorToken> {
  await db.read((s) => authorize(s, actor, "tokens.read_operator", { team: null }));
  const file = path.join(dataDir, OPERATOR_TOKEN_FILE);
  const token = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "";
  if (!token)
    throw new DomainError("not_found", `the operator token file ${file} is missing or empty; restarting the hub writes a new one`, {
      what: "operator token",
      rule: "exists",
    });
  return { token, file };
}

/** The tokens that still work (never their secrets, which are not stored). Only operators may list them. */
export async function listTokens({ db }: DomainDeps, actor: Principal): Promise<TokenView[]> {
  return db.read(async (s) => {
    await authorize(s, actor, "tokens.list", { team: null });
    const rows = await s.all<Pick<TokenRow, "principal" | "label" | "createdAt"> & Pick<PrincipalRow, "kind">>(
      sql`SELECT t."principal", p."kind", t."label", t."createdAt" FROM "Token" t JOIN "Principal" p ON p."name" = t."principal"
       WHERE t."revokedAt" IS NULL ORDER BY t."principal", t."id"`,
    );
    return rows.map((r) => ({ ...r, kind: PrincipalKind.parse(r.kind) }));
  });
}

/** Issues a token for a member or external agent. Only operators may issue tokens. */
export async function createToken(
  { db }: DomainDeps,
  actor: Principal,
  input: { name: string; kind: "member" | "agent"; label?: string },
): Promise<IssuedToken> {
  await db.read((s) => authorize(s, actor, "tokens.issue", { team: null }));
  if (input.name === OPERATOR.name) throw conflict(`'${OPERATOR.name}' is reserved for people at the dashboard and CLI`, { field: "name" });
  const secret = newSecret(input.kind === "member" ? "thm" : "tha");
  await db.write("token.create", actor.name, async (tx) => {
    const existing = await tx.get<Pick<PrincipalRow, "kind">>(sql`SELECT "kind" FROM "Principal" WHERE "name" = ${input.name}`);
    if (existing && existing.kind !== input.kind) {
      throw conflict(`principal '${input.name}' exists as ${existing.kind}, not ${input.kind}`, { field: "kind" });
    }
    await ensurePrincipal(tx, input.name, input.kind, tx.now);
    await tx.run(sql`INSERT INTO "Token" ("principal","hash","label","createdAt") VALUES (${input.name},${tokenHash(secret)},${input.label ?? ""},${tx.now})`);
    await tx.emit({
      teamId: null,
      type: "token.issued",
      subject: `principal:${input.name}`,
      payload: { principal: input.name, kind: input.kind, label: input.label ?? "" },
    });
  });
  return { principal: input.name, kind: input.kind, token: secret, label: input.label ?? "" };
}

/** Revokes a principal's tokens: all of them, or only those with the given label. */
export async function revokeTokens({ db }: DomainDeps, actor: Principal, input: { name: string; label?: string }): Promise<{ revoked: number }> {
  await db.read((s) => authorize(s, actor, "tokens.revoke", { team: null }));
  // Revoking it here would lock the token file out; rotation is replacing the file.
  if (input.name === OPERATOR.name) {
    throw conflict(`the operator token is not revoked, it is replaced: delete the data directory's ${OPERATOR_TOKEN_FILE} file and restart the hub`, {
      field: "name",
    });
  }
  return db.write("token.revoke", actor.name, async (tx) => ({ revoked: await retireTokens(tx, input.name, input.label) }));
}

/**
 * `hashes` name the tokens that stopped working, so /ws and MCP can close the connections that
 * authenticated with them at once (only hashes: the secrets are never stored).
 */
const revokedEvent = (principal: string, rows: Array<Pick<TokenRow, "hash">>) =>
  ({
    teamId: null,
    type: "token.revoked",
    subject: `principal:${principal}`,
    payload: { principal, count: rows.length, hashes: rows.map((r) => r.hash) },
  }) as const;

/** Revokes a principal's live tokens (only those with `label` when given); emits `token.revoked` when any were. */
async function retireTokens(tx: WriteTx, principal: string, label?: string): Promise<number> {
  const rows = await tx.all<Pick<TokenRow, "hash">>(
    sql`UPDATE "Token" SET "revokedAt" = ${tx.now} WHERE "principal" = ${principal} AND "revokedAt" IS NULL ${label === undefined ? EMPTY : sql`AND "label" = ${label}`} RETURNING "hash"`,
  );
  if (rows.length) await tx.emit(revokedEvent(principal, rows));
  return rows.length;
}

/** Whether the principal holds a token that still works. */
export async function hasLiveToken(s: Sql, name: string): Promise<boolean> {
  return !!(await s.get(sql`SELECT 1 FROM "Token" WHERE "principal" = ${name} AND "revokedAt" IS NULL`));
}

/** The principal a bearer token stands for; an unknown or revoked token is refused. */
export async function authenticate({ db }: DomainDeps, secret: string): Promise<Principal> {
  const h = tokenHash(secret);
  const row = await db.read((s) =>
    s.get<Pick<TokenRow, "hash" | "label"> & Pick<PrincipalRow, "name" | "kind">>(
      sql`SELECT t."hash", t."label", p."name", p."kind" FROM "Token" t JOIN "Principal" p ON p."name" = t."principal" WHERE t."hash" = ${h} AND t."revokedAt" IS NULL`,
    ),
  );
  if (!row || !timingSafeEqual(Buffer.from(row.hash), Buffer.from(h))) {
    throw new DomainError("unauthorized", "the bearer token is unknown or revoked");
  }
  // A supervised session's token says which session acts, so what it publishes is attributed to it.
  const session = row.label.startsWith(SESSION_LABEL) ? row.label.slice(SESSION_LABEL.length) : null;
  return { name: row.name, kind: PrincipalKind.parse(row.kind), ...(session ? { sessionId: session } : {}) };
}

/**
 * A supervised session's own token (docs/architecture.md#principals), issued by the hub itself when it launches the process.
 * Earlier tokens of the session are retired, so only the one in its current MCP config works.
 */
export async function issueSessionToken({ db }: DomainDeps, session: { name: string; kind: "member" | "agent" }): Promise<string> {
  const secret = newSecret(session.kind === "member" ? "thm" : "tha");
  const label = sessionTokenLabel(session.name);
  await db.write("token.session", "supervisor", async (tx) => {
    const existing = await tx.get<Pick<PrincipalRow, "kind">>(sql`SELECT "kind" FROM "Principal" WHERE "name" = ${session.name}`);
    if (existing && existing.kind !== session.kind) {
      throw conflict(`principal '${session.name}' exists as ${existing.kind}, not ${session.kind}`, { field: "name" });
    }
    await ensurePrincipal(tx, session.name, session.kind, tx.now);
    await retireTokens(tx, session.name, label);
    await tx.run(sql`INSERT INTO "Token" ("principal","hash","label","createdAt") VALUES (${session.name},${tokenHash(secret)},${label},${tx.now})`);
    await tx.emit({
      teamId: null,
      type: "token.issued",
      subject: `principal:${session.name}`,
      payload: { principal: session.name, kind: session.kind, label },
    });
  });
  return secret;
}

const SESSION_LABEL = "session:";
export const sessionTokenLabel = (name: string) => `${SESSION_LABEL}${name}`;
