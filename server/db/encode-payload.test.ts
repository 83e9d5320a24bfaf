import { describe, expect, it } from "vitest";
import { z } from "zod";
import { EVENTS } from "../../lib/api/events.ts";
import { IsoDate } from "../../lib/api/endpoint.ts";
import { encodePayload, parsesAsEncodes } from "./encode-payload.ts";

describe("encodePayload", () => {
  it("parses a schema with nothing but plain values, and encodes one with a codec, a transform or a default anywhere in it", () => {
    expect(parsesAsEncodes(z.object({ a: z.string(), b: z.array(z.number().int()).optional(), c: z.union([z.literal("x"), z.null()]) }))).toBe(true);
    expect(parsesAsEncodes(z.object({ a: z.object({ at: IsoDate }) }))).toBe(false);
    expect(parsesAsEncodes(z.object({ a: z.array(z.string().transform((s) => s.length)) }))).toBe(false);
    expect(parsesAsEncodes(z.object({ a: z.string().default("x") }))).toBe(false);
    expect(parsesAsEncodes(z.object({ a: z.lazy(() => z.string()) }))).toBe(false);
    expect(parsesAsEncodes(EVENTS["artifact.published"])).toBe(true);
  });

  it("gives what zod's encode gives for every payload type of the catalog, dates as ISO text", () => {
    const at = new Date("2026-01-02T03:04:05.678Z");
    for (const type of Object.keys(EVENTS) as Array<keyof typeof EVENTS>) {
      if (parsesAsEncodes(EVENTS[type])) continue;
      // A schema with a codec keeps going through encode: the same function, the same answer.
      expect(() => encodePayload(type, {})).toThrow(`event '${type}'`);
    }
    const payload = { artifactId: "a", version: 1, seq: 1, type: "custom", name: "a", publisher: "p", contractId: null, derivedFrom: [], summary: "", size: 2 };
    expect(encodePayload("artifact.published", { ...payload, extra: at })).toEqual(z.encode(EVENTS["artifact.published"], payload));
    expect(() => encodePayload("artifact.published", { ...payload, version: "1" })).toThrow("event 'artifact.published': the payload does not fit the catalog");
  });
});
