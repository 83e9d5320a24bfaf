/**
 * Snapshot states are stored gzipped. Listing snapshots shows their counts without inflating
 * whole states: `counts` is the first key of the JSON, so the first few kilobytes of the blob,
 * inflated as a truncated stream (zlib's documented Z_SYNC_FLUSH mode), always contain it.
 */
import { constants, gunzipSync, gzipSync } from "node:zlib";
import { SnapshotState, StateCounts } from "../../../lib/api/snapshots.ts";

/** Bytes of the compressed state that listing reads: the deflate block header takes a few hundred at most. */
export const COUNTS_PREFIX_BYTES = 4096;

export function encodeState(state: SnapshotState): Buffer {
  return gzipSync(JSON.stringify(state));
}

export function decodeState(blob: Uint8Array): SnapshotState {
  // `format` is a literal in the schema: a state of another format is refused here, naming the field.
  return SnapshotState.parse(JSON.parse(gunzipSync(blob).toString("utf8")));
}

/** The counts from the start of a compressed state. */
export function countsFromPrefix(prefix: Uint8Array): StateCounts {
  const head = gunzipSync(prefix, { finishFlush: constants.Z_SYNC_FLUSH }).toString("utf8");
  const match = /^\{"format":1,"counts":(\{[^}]*\})/.exec(head);
  if (!match) throw new Error("snapshot state does not start with its counts");
  return StateCounts.parse(JSON.parse(match[1]));
}
