import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { UpdateTeamSettingsInput } from "../../../lib/api/team-settings.ts";
import { issues, refusedWithoutWriting } from "../../testing/refusals.ts";
import { tempHub, type TempHub } from "../../testing/temp-hub.ts";
import { OPERATOR } from "../principal.ts";
import { parseOrThrow } from "../zod-errors.ts";
import { getTeamSettings, updateTeamSettings } from "./settings.ts";

let hub: TempHub;
beforeEach(async () => {
  hub = await tempHub();
});
afterEach(() => hub.close());

const update = async (changes: Record<string, unknown>) => updateTeamSettings(hub, OPERATOR, parseOrThrow(UpdateTeamSettingsInput, changes));

describe("team settings", () => {
  it("keeps what was not changed and says what a number out of range must be", async () => {
    await update({ chatRateLimitPerMinute: 25 });
    expect(await getTeamSettings(hub, { team: "default" })).toMatchObject({ chatRateLimitPerMinute: 25, inboxLiveLimit: 1000, wake: "on" });
    const e = await refusedWithoutWriting(hub, () =>
      update({ inboxLiveLimit: 5, chatLoopWindowSeconds: 4000, chatLoopMaxExchanges: 2.5, chatRateLimitPerMinute: null }),
    );
    expect(issues(e).map((i) => [i.field, i.rule, i.message])).toEqual([
      ["chatRateLimitPerMinute", "invalid_type", "must be a number"],
      ["chatLoopMaxExchanges", "invalid_type", "must be a whole number"],
      ["chatLoopWindowSeconds", "too_big", "must be at most 3600"],
      ["inboxLiveLimit", "too_small", "must be at least 10"],
    ]);
    expect(e.message).toBe("chatRateLimitPerMinute: must be a number (and 3 more)");
  });

  it("changes only the options named, leaving the others as they were", async () => {
    await update({ wake: "off", chatRateLimitPerMinute: 25 });
    expect(await update({ inboxLiveLimit: 2000 })).toEqual({
      wake: "off",
      gateEnforcement: "on",
      chatRateLimitPerMinute: 25,
      chatLoopMaxExchanges: 5,
      chatLoopWindowSeconds: 60,
      inboxLiveLimit: 2000,
      maxPreset: "edit",
      rootDir: null,
      maxCostUsd: 2,
      maxTurns: 50,
      maxTimeoutMs: 300000,
      isolation: "shared",
      memberIsolation: "worktree",
      worktree: null,
    });
    expect(hub.events.at(-1)).toMatchObject({ type: "team.settings_changed", payload: { changes: { inboxLiveLimit: 2000 } } });
  });

  it("may be changed by operators only", async () => {
    const e = await refusedWithoutWriting(hub, () =>
      updateTeamSettings(hub, { name: "api-dev", kind: "member" }, parseOrThrow(UpdateTeamSettingsInput, { wake: "off" })),
    );
    expect(e).toMatchObject({
      code: "forbidden",
      message: "'api-dev' (member) may not change team settings: only a lead of team 'default' or the operator may",
    });
  });
});
