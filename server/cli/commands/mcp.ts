import type { Command } from "commander";
import { EXIT } from "../api-client.ts";

export function register(program: Command) {
  program
    .command("mcp")
    .description("serve Team Hub's MCP tools over stdio (for clients that launch a command); acts as the principal of --token / TEAMHUB_TOKEN")
    .action(async function (this: Command) {
      const opts = this.optsWithGlobals() as { token?: string; dataDir?: string };
      if (opts.dataDir) process.env.TEAMHUB_DATA_DIR = opts.dataDir;
      try {
        // Loaded here so that other commands do not pay for the MCP SDK.
        const { runMcpStdio } = await import("../../mcp/stdio.ts");
        await runMcpStdio(opts.token ?? process.env.TEAMHUB_TOKEN);
      } catch (e) {
        process.stderr.write(`teamhub mcp: ${(e as Error).message}\n`);
        process.exit(EXIT.badInput);
      }
    });
}
