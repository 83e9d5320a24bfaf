/** SDK clients against a running hub: over /mcp with a bearer token, or `teamhub mcp` over stdio. */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BIN, ROOT } from "./hub-process.ts";

export async function httpClient(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "teamhub-e2e", version: "1.0.0" });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } }));
  return client;
}

export async function stdioClient(dataDir: string, token?: string): Promise<Client> {
  const client = new Client({ name: "teamhub-e2e-stdio", version: "1.0.0" });
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp"],
      cwd: ROOT,
      env: { ...env, TEAMHUB_DATA_DIR: dataDir, ...(token ? { TEAMHUB_TOKEN: token } : {}) },
      stderr: "pipe",
    }),
  );
  return client;
}

type CallResult = { isError?: boolean; content: Array<{ type: string; text?: string }>; structuredContent?: Record<string, unknown> };

/** Calls a tool and returns its result with the first text block parsed (when it is JSON). */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  const r = (await client.callTool({ name, arguments: args })) as CallResult;
  const text = r.content[0]?.text ?? "";
  return { ...r, text, json: () => JSON.parse(text) as any };
}
