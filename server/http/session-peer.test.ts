import { spawn, type ChildProcess } from "node:child_process";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createSessionPeerCheck } from "./session-peer.ts";

let server: net.Server | null = null;
let child: ChildProcess | null = null;
afterEach(async () => {
  child?.kill("SIGKILL");
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = child = null;
});

/** A server on loopback and the next connection it accepts. */
async function listen(): Promise<{ port: number; accepted: Promise<net.Socket> }> {
  let accept!: (s: net.Socket) => void;
  const accepted = new Promise<net.Socket>((r) => (accept = r));
  server = net.createServer((s) => accept(s));
  await new Promise<void>((r) => server!.listen(0, "127.0.0.1", () => r()));
  return { port: (server.address() as net.AddressInfo).port, accepted };
}

describe("a connection's peer", () => {
  it("is a session's when a process below a session process holds the client socket", async () => {
    const { port, accepted } = await listen();
    // A shell (the "session process") whose child connects and stays connected.
    child = spawn("sh", ["-c", `exec node -e "require('net').connect(${port}, '127.0.0.1'); setInterval(() => {}, 1000)"`]);
    const socket = await accepted;
    expect(await createSessionPeerCheck(() => [child!.pid!]).fromSession(socket)).toBe(true);
  });

  it("is not a session's when the client is any other process, and no session runs at all", async () => {
    const { port, accepted } = await listen();
    const client = net.connect(port, "127.0.0.1");
    const socket = await accepted;
    child = spawn("sleep", ["30"]);
    expect(await createSessionPeerCheck(() => [child!.pid!]).fromSession(socket)).toBe(false);
    expect(await createSessionPeerCheck(() => []).fromSession(socket)).toBe(false);
    client.destroy();
  });
});
