import { setMaxListeners } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// The SDK's HTTP client passes one AbortSignal to every fetch of a session, and undici keeps a
// listener per response stream on it; a long client session trips Node's leak warning, which
// would only be noise here (the client side of the benchmark, not the hub).
setMaxListeners(0);

/** A client of the hub's /mcp; with `token`, as the principal it names (without: the operator, on loopback). */
export async function connect(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: "teamhub-bench", version: "1.0.0" });
  const requestInit = token ? { headers: { authorization: `Bearer ${token}` } } : undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit }));
  return client;
}

/** One tools/call; latency in ms, and whether the tool reported an error. */
export async function timedCall(client: Client, name: string, args: Record<string, unknown>): Promise<{ ms: number; isError: boolean }> {
  const start = performance.now();
  const r = (await client.callTool({ name, arguments: args })) as { isError?: boolean };
  return { ms: performance.now() - start, isError: r.isError === true };
}
