/**
 * A hub whose sessions run the real pinned `claude` against a fake Messages API served by the
 * test process, each hub with its own HOME, CLAUDE_CONFIG_DIR and TMPDIR for the CLI.
 */
import fs from "node:fs";
import path from "node:path";
import { vi } from "vitest";
import { tempDir } from "../../server/testing/temp-dir.ts";
import { startFakeApi, type FakeApi, type Reply } from "../fake-anthropic/server.ts";
import type { MessagesRequest } from "../fake-anthropic/request.ts";
import { CLAUDE_BIN, isolatedClaudeVars } from "./claude.ts";
import { api, startHub, tempDataDir, type HubProcess } from "./hub-process.ts";

export type SessionHub = {
  hub: HubProcess;
  fake: FakeApi;
  work: string;
  /** The HOME the sessions' CLI is given (unless `env` sets TEAMHUB_CLAUDE_ENV), with the user's Claude config in `.claude`. */
  claudeHome: string;
  restart(options?: { samePort?: boolean }): Promise<void>;
  close(): Promise<void>;
};

/**
 * `dataInWorkDir`: the default layout of `npm start` (work dir = cwd, data = ./data), with the data dir inside the sessions' work dir.
 * `credentials`: what the sessions' CLI authenticates with instead of the test API key (a subscriber's CLAUDE_CODE_OAUTH_TOKEN).
 * `model`: the CLI's default model (ANTHROPIC_MODEL), for a test whose figures depend on its price whatever release runs.
 */
export async function startSessionHub(
  respond: (req: MessagesRequest) => Reply | Promise<Reply>,
  env: Record<string, string> = {},
  options: { dataInWorkDir?: boolean; credentials?: Record<string, string>; model?: string } = {},
): Promise<SessionHub> {
  const fake = await startFakeApi(respond);
  const work = tempDir("work");
  const dataDir = options.dataInWorkDir ? path.join(work, "data") : tempDataDir("sessions");
  fs.mkdirSync(dataDir, { recursive: true });
  const claude = isolatedClaudeVars(fake.url);
  if (options.credentials) {
    delete (claude as Partial<typeof claude>).ANTHROPIC_API_KEY;
    Object.assign(claude, options.credentials);
  }
  if (options.model) Object.assign(claude, { ANTHROPIC_MODEL: options.model });
  const hubEnv = { CLAUDE_BIN, TEAMHUB_CLAUDE_ENV: JSON.stringify(claude), TEAMHUB_WORK_DIR: work, ...env };
  const sh: SessionHub = {
    hub: await startHub(dataDir, hubEnv),
    fake,
    work,
    claudeHome: claude.HOME,
    async restart({ samePort = false } = {}) {
      sh.hub = await startHub(dataDir, hubEnv, samePort ? Number(new URL(sh.hub.url).port) : 0);
    },
    async close() {
      await sh.hub.kill();
      await fake.close();
    },
  };
  return sh;
}

/** Polls the session until `until` holds (state changes arrive through the supervisor, not the request). */
export function waitForSession(hub: HubProcess, name: string, until: (s: any) => boolean, timeoutMs = 30_000): Promise<any> {
  return vi.waitFor(
    async () => {
      const last = (await api(hub, "GET", `/api/sessions/${name}`)).body;
      if (!until(last)) throw new Error(`session ${name} did not reach the expected state; last: ${JSON.stringify(last, null, 2)}`);
      return last;
    },
    { timeout: timeoutMs, interval: 50 },
  );
}

/** The files holding Claude conversation `id`: in the CLI config dir of the session that had it, `<data>/sessions/<pk>/claude`. */
export function conversationFiles(hub: HubProcess, id: string): string[] {
  const sessions = path.join(hub.dataDir, "sessions");
  return fs.readdirSync(sessions).flatMap((pk) => {
    const projects = path.join(sessions, pk, "claude", "projects");
    return fs.existsSync(projects)
      ? fs
          .readdirSync(projects)
          .map((slug) => path.join(projects, slug, `${id}.jsonl`))
          .filter((f) => fs.existsSync(f))
      : [];
  });
}
