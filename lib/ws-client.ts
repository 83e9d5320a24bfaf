/**
 * The dashboard's /ws connection: the client library's LiveStream (lib/client/live.ts), which reconnects after a hub
 * restart and subscribes again from the last event it delivered, so no event is missed, handed to callbacks. It keeps
 * trying while the hub is away; if the hub ends it (1008: the token revoked, flooding) it shows offline.
 */
import { LiveStream, type Frame, type LiveState } from "./client/live.ts";
import type { ProcessOutputFrame, TextDelta, WireEvent, WireTranscriptEntry } from "./ws.ts";
import { TOKEN_KEY } from "./browser-api.ts";

export type { LiveState };

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
  const stream = new LiveStream<Frame>({
    url: window.location.origin,
    token: window.localStorage.getItem(TOKEN_KEY),
    teams: options.teams,
    sessions: options.sessions ?? [],
    read: (frame) => [frame],
    keepTrying: true,
    onState: options.onState,
  });
  void (async () => {
    try {
      for await (const frame of stream) {
        if (frame.type === "event") options.onEvent?.(frame.payload);
        else if (frame.type === "transcript") options.onTranscript?.(frame.payload);
        else if (frame.type === "transcript_delta") options.onTextDelta?.(frame.payload);
        else options.onOutput?.(frame.payload);
      }
    } catch {
      // Ended by the hub: the stream has said offline, and stays so until the page connects again.
    }
  })();
  return () => stream.close();
}
