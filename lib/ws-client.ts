/**
 * A /ws connection that reconnects after a hub restart and resumes from the last event it saw,
 * so no event is missed. Messages are checked against the shared zod catalog.
 */
import { ServerMessage, WS_VERSION, type ProcessOutputFrame, type TextDelta, type WireEvent, type WireTranscriptEntry } from "./ws.ts";
import { TOKEN_KEY } from "./browser-api.ts";

export type LiveState = "connecting" | "live" | "offline";

export function connectLive(options: {
  teams: string[];
  /** Sessions whose transcript lines to receive as they are stored. */
  sessions?: string[];
  onEvent?: (e: WireEvent) => void;
  onTranscript?: (t: WireTranscriptEntry) => void;
  /** The model's text of a followed session as it streams: the text so far on subscribing (`soFar`), then a piece at a time. */
  onTextDelta?: (d: TextDelta) => void;
  /** A stored piece of a followed session's setup, run or archive output. */
  onOutput?: (o: ProcessOutputFrame) => void;
  onState?: (s: LiveState) => void;
}): () => void {
  let socket: WebSocket | null = null;
  let lastId: number | undefined;
  let closed = false;
  let retry = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const open = () => {
    options.onState?.("connecting");
    const token = window.localStorage.getItem(TOKEN_KEY);
    const url = new URL("/ws", window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    if (token) url.searchParams.set("token", token);
    socket = new WebSocket(url);
    socket.onopen = () => {
      retry = 0;
      socket?.send(
        JSON.stringify({ v: WS_VERSION, type: "subscribe", team: null, payload: { teams: options.teams, since: lastId, sessions: options.sessions ?? [] } }),
      );
    };
    socket.onmessage = (m) => {
      const parsed = ServerMessage.safeParse(JSON.parse(String(m.data)));
      if (!parsed.success) return;
      const msg = parsed.data;
      if (msg.type === "hello") lastId ??= msg.payload.lastEventId;
      if (msg.type === "subscribed") options.onState?.("live");
      if (msg.type === "transcript") options.onTranscript?.(msg.payload);
      if (msg.type === "transcript_delta") options.onTextDelta?.(msg.payload);
      if (msg.type === "process_output") options.onOutput?.(msg.payload);
      if (msg.type === "event") {
        lastId = Math.max(lastId ?? 0, msg.payload.id);
        options.onEvent?.(msg.payload);
      }
    };
    socket.onclose = () => {
      options.onState?.("offline");
      if (closed) return;
      // Back off up to 5 s so a restarting hub is picked up quickly without hammering it.
      timer = setTimeout(open, Math.min(5000, 250 * 2 ** retry++));
    };
  };
  open();
  return () => {
    closed = true;
    clearTimeout(timer);
    socket?.close();
  };
}
