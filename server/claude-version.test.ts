import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareVersions, infoOf, NEWEST_TESTED, OLDEST_SUPPORTED, rangeWarning, versionFromCli, versionFromPackage } from "./claude-version.ts";
import { tempDir } from "./testing/temp-dir.ts";
import { PROJECT_ROOT } from "./version.ts";

const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, "package.json"), "utf8")) as { devDependencies: Record<string, string> };

describe("the supported Claude Code releases", () => {
  it("are the ones the tests run: the pinned devDependency is the newest, the claude-code-oldest alias the oldest", () => {
    expect(manifest.devDependencies["@anthropic-ai/claude-code"]).toBe(NEWEST_TESTED);
    expect(manifest.devDependencies["claude-code-oldest"]).toBe(`npm:@anthropic-ai/claude-code@${OLDEST_SUPPORTED}`);
  });

  it("compare by number, not as text", () => {
    expect(compareVersions("2.1.197", "2.1.33")).toBeGreaterThan(0);
    expect(compareVersions("2.1.197", "2.1.197")).toBe(0);
    expect(compareVersions("2.0.999", "2.1.0")).toBeLessThan(0);
  });

  it("flag a version outside the range, older (unsupported) or newer (untested)", () => {
    expect(infoOf(OLDEST_SUPPORTED).supported).toBe(true);
    expect(infoOf(NEWEST_TESTED).supported).toBe(true);
    expect(infoOf("2.0.1")).toMatchObject({ version: "2.0.1", supported: false });
    expect(infoOf(null)).toMatchObject({ version: null, supported: null, range: `${OLDEST_SUPPORTED} – ${NEWEST_TESTED}` });
    expect(rangeWarning(NEWEST_TESTED)).toBeNull();
    expect(rangeWarning("2.0.1")).toMatch(/older than the oldest supported release/);
    expect(rangeWarning("9.0.0")).toMatch(/newer than the newest tested release/);
  });

  it("are read from the installed packages without running them, and from `claude --version` otherwise", async () => {
    expect(versionFromPackage(path.join(PROJECT_ROOT, "node_modules/.bin/claude"))).toBe(NEWEST_TESTED);
    expect(versionFromPackage(path.join(PROJECT_ROOT, "node_modules/claude-code-oldest/bin/claude.exe"))).toBe(OLDEST_SUPPORTED);
    const fake = path.join(tempDir("claude-version"), "claude");
    fs.writeFileSync(fake, "#!/bin/sh\necho '2.1.250 (Claude Code)'\n", { mode: 0o755 });
    expect(versionFromPackage(fake)).toBeNull();
    expect(await versionFromCli(fake, { PATH: process.env.PATH ?? "" })).toBe("2.1.250");
    expect(await versionFromCli("/nonexistent/claude", {})).toBeNull();
  });
});
