/**
 * A real hub: `teamhub start` in its own OS process on a free port with its own data directory,
 * exactly as a user runs it. Tests talk to it over HTTP, the CLI and /ws, and may kill it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { COMPILED_CLI } from "../../scripts/compile-dist.ts";
import { tempDir } from "../../server/testing/temp-dir.ts";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/**
 * The `teamhub` command as an installed package runs it: compiled (dist/, current with the sources: e2e/global-setup.ts).
 * A clone's bin/teamhub.mjs runs the same code through tsx, which costs every process about half a second of CPU.
 */
export const BIN = COMPILED_CLI;

export type HubProcess = {
  url: string;
  dataDir: string;
  dbFile: string;
  child: ChildProcess;
  log: () => string;
  /** Sends a signal and waits for the process to exit. */
  kill(signal?: NodeJS.Signals): Promise<void>;
};

export function tempDataDir(label = "hub"): string {
  return tempDir(label);
}

/** `port` 0 takes any free port; a restart that a browser must find again passes the one it had. */
/**
 * The test runner's environment without its own Claude Code and Anthropic settings (CLAUDE_BIN
 * aside): hubs pass a shell's credentials to their sessions, and a test's sessions must never
 * get the developer's.
 */
export function runnerEnv(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      (e): e is [string, string] => e[1] !== undefined && (e[0] === "CLAUDE_BIN" || !/^(ANTHROPIC_|CLAUDE_|CLAUDECODE)/.test(e[0])),
    ),
  );
}

export async function startHub(dataDir = tempDataDir(), env: Record<string, string> = {}, port = 0): Promise<HubProcess> {
  fs.rmSync(path.join(dataDir, "hub.json"), { force: true });
  let output = "";
  const child = spawn(process.execPath, [BIN, "start", "--port", String(port)], {
    cwd: ROOT,
    env: { ...(runnerEnv() as NodeJS.ProcessEnv), TEAMHUB_DATA_DIR: dataDir, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const hubFile = path.join(dataDir, "hub.json");
  const deadline = Date.now() + 120_000;
  while (!fs.existsSync(hubFile)) {
    if (child.exitCode !== null) throw new Error(`hub exited with ${child.exitCode}:\n${output}`);
    if (Date.now() > deadline) throw new Error(`hub did not start in time:\n${output}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const { url } = JSON.parse(fs.readFileSync(hubFile, "utf8")) as { url: string };
  return {
    url,
    dataDir,
    dbFile: path.join(dataDir, "teamhub.db"),
    child,
    log: () => output,
    async kill(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export type CliResult = { code: number; stdout: string; stderr: string; json: () => any };

/** Runs the real `teamhub` CLI against a hub's data directory (which names its URL and token). */
export function cli(dataDir: string, args: string[], env: Record<string, string> = {}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: { ...process.env, TEAMHUB_DATA_DIR: dataDir, TEAMHUB_URL: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr, json: () => JSON.parse(r.stdout) };
}

/** The same, without blocking this process: for commands that wait on something the test serves (the fake API). */
export function cliAsync(dataDir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: { ...process.env, TEAMHUB_DATA_DIR: dataDir, TEAMHUB_URL: "", ...env } });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.once("close", (code) => resolve({ code: code ?? -1, stdout, stderr, json: () => JSON.parse(stdout) }));
  });
}

/**
 * One HTTP request with JSON in and out. node:http rather than fetch, because fetch refuses to
 * send a Host header of our choosing and the Host checks need exactly that. `agent: false` opens
 * a connection of its own instead of reusing a pooled keep-alive one.
 */
export function api(
  hub: { url: string },
  method: string,
  route: string,
  body?: unknown,
  headers: Record<string, string> = {},
  agent?: http.Agent | false,
): Promise<{ status: number; body: any; headers: http.IncomingHttpHeaders }> {
  const payload = body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${hub.url}${route}`,
      {
        method,
        agent,
        headers: { ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}), ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => {
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            // leave as text
          }
          resolve({ status: res.statusCode ?? 0, body: json, headers: res.headers });
        });
      },
    );
    req.on("error", reject);
    req.end(payload);
  });
}

/** The Authorization header of a bearer token; none without one (the operator, on loopback). */
export const bearer = (token?: string): Record<string, string> => (token ? { authorization: `Bearer ${token}` } : {});

/** Runs `job(0)` … `job(n - 1)` with at most `width` in flight; the results in index order. */
export async function pool<R>(n: number, width: number, job: (i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < n) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}
