/**
 * Snapshot states are stored gzipped. Listing snapshots shows their counts without inflating
 * whole states: `counts` is the first key of the JSON, so the first few kilobytes of the blob,
 * inflated as a truncated stream (zlib's documented Z_SYNC_FLUSH mode), always contain it.
 */
import { z } from "zod";
import { constants, gunzipSync, gzipSync } from "node:zlib";
import type { SnapshotState, StateCounts } from "./state.ts";

/** Bytes of the compressed state that listing reads: the deflate block header takes a few hundred at most. */
export const COUNTS_PREFIX_BYTES = 4096;

export function encodeState(state: SnapshotState): Buffer {
  return gzipSync(JSON.stringify(state));
}

export function decodeState(blob: Uint8Array): SnapshotState {
  const state = JSON.parse(gunzipSync(blob).toString("utf8")) as SnapshotState;
  if (state.format !== 1) throw new Error(`snapshot state has unknown format ${String(state.format)}`);
  return state;
}

const Counts = z.object({ contracts: z.number().int(), artifacts: z.number().int(), pipelines: z.number().int(), members: z.number().int() });

/** The counts from the start of a compressed state. */
export function countsFromPrefix(prefix: Uint8Array): StateCounts {
  const head = gunzipSync(prefix, { finishFlush: constants.Z_SYNC_FLUSH }).toString("utf8");
  const match = /^\{"format":1,"counts":(\{[^}]*\})/.exec(head);
  if (!match) throw new Error("snapshot state does not start with its counts");
  return Counts.parse(JSON.parse(match[1]));
}
