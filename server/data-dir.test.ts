import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { chooseDataDir, legacyDataDirNotice } from "./data-dir.ts";
import { tempDir } from "./testing/temp-dir.ts";

/** A working directory and a home of their own for each case: nothing here may touch the real ~/.teamhub. */
function place() {
  const root = tempDir("data-dir");
  const cwd = path.join(root, "project");
  const home = path.join(root, "home");
  fs.mkdirSync(cwd);
  fs.mkdirSync(home);
  return { cwd, home };
}

describe("the data directory", () => {
  it("is ~/.teamhub by default, whatever the current directory", () => {
    const { cwd, home } = place();
    expect(chooseDataDir(undefined, cwd, home)).toEqual({ dir: path.join(home, ".teamhub"), origin: "home" });
    expect(chooseDataDir("", cwd, home).origin).toBe("home");
  });

  it("is TEAMHUB_DATA_DIR when set, relative to the current directory", () => {
    const { cwd, home } = place();
    expect(chooseDataDir("./data", cwd, home)).toEqual({ dir: path.join(cwd, "data"), origin: "explicit" });
    expect(chooseDataDir("/srv/hub", cwd, home)).toEqual({ dir: "/srv/hub", origin: "explicit" });
  });

  it.each(["teamhub.db", "operator-token"])("stays the ./data an earlier version left (found by its %s), so no database is lost", (file) => {
    const { cwd, home } = place();
    fs.mkdirSync(path.join(cwd, "data"));
    fs.writeFileSync(path.join(cwd, "data", file), "");
    expect(chooseDataDir(undefined, cwd, home)).toEqual({ dir: path.join(cwd, "data"), origin: "legacy" });
  });

  it("ignores a ./data that is not a hub's", () => {
    const { cwd, home } = place();
    fs.mkdirSync(path.join(cwd, "data"));
    fs.writeFileSync(path.join(cwd, "data", "users.csv"), "");
    expect(chooseDataDir(undefined, cwd, home).origin).toBe("home");
  });

  it("says how to move an earlier version's ./data, or why it stays when ~/.teamhub exists", () => {
    const { cwd, home } = place();
    const legacy = path.join(cwd, "data");
    expect(legacyDataDirNotice(legacy, home)).toContain(`\`mv ${legacy} ${path.join(home, ".teamhub")}\``);
    fs.mkdirSync(path.join(home, ".teamhub"));
    expect(legacyDataDirNotice(legacy, home)).toContain("exists already, so this one stays where it is");
  });
});
