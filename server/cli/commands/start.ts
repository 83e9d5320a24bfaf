import type { Command } from "commander";
import { legacyDataDirNotice } from "../../data-dir.ts";
import { FROM_SOURCES, PROJECT_ROOT } from "../../version.ts";
import { EXIT } from "../api-client.ts";
import { ensureBuild } from "../build-stamp.ts";

type Opts = { port?: string; host?: string; dev?: boolean; dataDir?: string };

export function register(program: Command) {
  program
    .command("start")
    .description("run the hub (dashboard, API, /ws, scheduler) in the foreground")
    .option("--port <n>", "port (default 3000, or PORT)")
    .option("--host <addr>", "address to listen on (default 127.0.0.1; anything else requires tokens)")
    .option("--dev", "Next.js development mode (hot reload; from a clone)")
    .action(async function (this: Command) {
      const opts = this.optsWithGlobals() as Opts;
      if (opts.port) process.env.PORT = opts.port;
      if (opts.host) process.env.TEAMHUB_HOST = opts.host;
      if (opts.dataDir) process.env.TEAMHUB_DATA_DIR = opts.dataDir;
      if (opts.dev) process.env.TEAMHUB_DEV = "1";
      try {
        // Loaded here, like the server below, so that every other command starts without the database drivers.
        const { readEnv } = await import("../../env.ts");
        const env = readEnv();
        if (env.dev && !FROM_SOURCES) throw new Error("--dev runs the dashboard from its sources: start it from a clone of the repository");
        // A clone builds the dashboard when its sources changed; the package carries it built (docs/distribution.md).
        if (!env.dev && FROM_SOURCES) ensureBuild(PROJECT_ROOT, (m) => console.log(`[teamhub] ${m}`));
        if (env.dataDirOrigin === "legacy") console.log(`[teamhub] ${legacyDataDirNotice(env.dataDir)}`);
        const { startHub } = await import("../../server.ts");
        const hub = await startHub(env);
        const stop = () => void hub.close().then(() => process.exit(EXIT.ok));
        process.once("SIGINT", stop);
        process.once("SIGTERM", stop);
      } catch (e) {
        console.error(`teamhub: cannot start: ${(e as Error).message}`);
        process.exit(EXIT.failure);
      }
    });
}
