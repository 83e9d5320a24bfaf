/**
 * `teamhub mcp`: the same MCP server over stdio, for clients that launch a command. It works on
 * the hub's database directly (the hub need not be running); a running hub picks its changes up
 * from the event log. It acts as the principal of its token (TEAMHUB_TOKEN or --token), or as
 * the operator without one. Nothing but the protocol may go to stdout.
 */
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { connectDatabase, migrateDatabase } from "../db/open.ts";
import { OPERATOR } from "../domain/principal.ts";
import { readEnv } from "../env.ts";
import { EventBus } from "../events/bus.ts";
import { startLogFeed } from "../events/log-feed.ts";
import { createServices } from "../services.ts";
import { hubVersion } from "../version.ts";
import { buildMcpServer } from "./build-server.ts";
import { checkSandbox } from "../supervisor/sandbox-check.ts";
import { notifyResourceChanges } from "./notify.ts";

export async function runMcpStdio(token: string | undefined): Promise<void> {
  const env = readEnv();
  await migrateDatabase(env.database);
  const bus = new EventBus();
  const db = connectDatabase(env.database, bus, { synchronous: env.synchronous });
  // Sessions it spawns are launched by the running hub on this machine, so the same check applies.
  const sandbox = checkSandbox(env.claude.sandbox, env.claude.bwrap).kind;
  const svc = createServices(
    { db, bus },
    {
      version: hubVersion(),
      startedAt: new Date(),
      requireToken: false,
      dataDir: env.dataDir,
      sessionWorkDir: env.claude.workDir,
      sandbox,
      maxLiveSessions: env.maxLiveSessions,
      webhooks: env.webhooks,
      runtimes: env.runtimes.specs,
    },
  );
  const principal = token ? await svc.auth.authenticate(token) : OPERATOR;
  const server = buildMcpServer(svc, () => principal);
  const eventLog = await startLogFeed(db, bus);
  bus.subscribe((events) => notifyResourceChanges(server, events));
  const transport = new StdioServerTransport();
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await eventLog.stop();
    await server.mcp.close().catch(() => {});
    await db.close();
    process.exit(0);
  };
  // Claude Code ends its MCP servers with SIGINT; stdin closing means the client went away.
  process.once("SIGINT", close);
  process.once("SIGTERM", close);
  process.stdin.once("end", close);
  transport.onclose = () => void close();
  await server.mcp.connect(transport);
}
