/**
 * A minimal streamable HTTP MCP server with one tool, `echo`, that records the bearer token of each
 * request: for tests of an agent's MCP client without a hub.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

export type EchoMcp = { url: string; tokens: string[]; echoed: string[]; close(): Promise<void> };

export async function startEchoMcp(): Promise<EchoMcp> {
  const tokens: string[] = [];
  const echoed: string[] = [];
  const server = http.createServer((req, res) => {
    tokens.push((req.headers.authorization ?? "").replace(/^Bearer /, ""));
    // Stateless: a server and transport per request, as nothing here outlives a call.
    const mcp = new McpServer({ name: "echo", version: "1" });
    mcp.registerTool("echo", { description: "Returns its text.", inputSchema: { text: z.string() } }, ({ text }) => {
      echoed.push(text);
      return { content: [{ type: "text", text: `echo: ${text}` }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void mcp.close());
    void mcp.connect(transport).then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    tokens,
    echoed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
