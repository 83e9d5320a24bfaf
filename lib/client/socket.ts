/**
 * The WebSocket of the runtime the client runs in: the `ws` package under Node (Node 20 has no global
 * WebSocket), the global one in browsers, Deno and Bun. Either way the live stream (live.ts) gets the
 * text of each message and the close, with the reason a refused upgrade gave.
 */
export type SocketEvents = {
  message: (text: string) => void;
  close: (code: number, reason: string) => void;
};

export type Socket = { send(text: string): void; close(code?: number, reason?: string): void };

const inNode = typeof process !== "undefined" && typeof process.versions?.node === "string";

export async function openSocket(url: string, on: SocketEvents): Promise<Socket> {
  if (inNode) {
    const { WebSocket } = await import("ws");
    const socket = new WebSocket(url);
    // A refused upgrade is an error, then a close without a reason: the error says why ("Unexpected server response: 401").
    let error = "";
    socket.on("error", (e) => (error = e.message));
    socket.on("message", (data) => on.message(String(data)));
    socket.on("close", (code, reason) => on.close(code, String(reason) || error));
    return socket;
  }
  if (typeof globalThis.WebSocket !== "function") throw new Error("this runtime has no WebSocket: live events need Node or a browser");
  const socket = new globalThis.WebSocket(url);
  socket.addEventListener("message", (e) => on.message(String(e.data)));
  socket.addEventListener("close", (e) => on.close(e.code, e.reason));
  return socket;
}
