/**
 * Assertions for refused commands: the typed error they are refused with, and that a refused
 * command changed nothing (every table row, and nothing published on the bus).
 */
import { expect } from "vitest";
import { DomainError, type Issue } from "../errors.ts";
import { snapshotTables, type TempHub } from "./temp-hub.ts";

/** The DomainError a call is refused with; fails if it succeeds or throws anything else. */
export async function refusal(p: Promise<unknown>): Promise<DomainError> {
  const outcome = await p.then(
    () => new Error("expected the call to be refused, but it succeeded"),
    (e: unknown) => e,
  );
  if (!DomainError.is(outcome)) throw outcome;
  return outcome;
}

/** Refused, and neither the database nor the bus saw anything. */
export async function refusedWithoutWriting(hub: TempHub, call: () => Promise<unknown>): Promise<DomainError> {
  const before = await snapshotTables(hub);
  const published = hub.events.length;
  const err = await refusal(call());
  expect(await snapshotTables(hub)).toEqual(before);
  expect(hub.events.length).toBe(published);
  return err;
}

/** The per-field issues of an invalid_input error. */
export const issues = (e: DomainError) => (e.details.issues ?? []) as Issue[];
