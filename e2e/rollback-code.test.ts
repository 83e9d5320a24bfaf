/**
 * A rollback of code, with the real `claude` CLI in its sandbox and a real git repository: two members
 * change their work trees through the model's Write, Edit and Bash calls; a snapshot; more changes (a file edited,
 * one added, one deleted); a rollback puts every work tree's files back to the snapshot's byte for byte, and rolling
 * back to the automatic snapshot it kept brings the later files back.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { directiveModel } from "./fake-anthropic/directives.ts";
import { api } from "./helpers/hub-process.ts";
import { startSessionHub, waitForSession, type SessionHub } from "./helpers/session-hub.ts";
import { workTree } from "./helpers/work-tree.ts";

const TEAM = "rb";
let sh: SessionHub;

beforeAll(async () => {
  sh = await startSessionHub(directiveModel());
  const repo = workTree(sh.work);
  repo.git("checkout", "-q", "-b", "main");
  repo.write("app.txt", "one\ntwo\nthree\n");
  repo.write("keep.txt", "kept\n");
  repo.commit("start");
});
afterAll(async () => sh?.close());

/** Every file of a work tree but its `.git` link, with the sha-256 of its bytes. */
function filesOf(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string) => {
    for (const e of fs.readdirSync(path.join(dir, rel), { withFileTypes: true })) {
      const file = path.join(rel, e.name);
      if (file === ".git") continue;
      if (e.isDirectory()) walk(file);
      else
        out[file] = createHash("sha256")
          .update(fs.readFileSync(path.join(dir, file)))
          .digest("hex");
    }
  };
  walk("");
  return out;
}

async function turn(name: string, directives: string[]): Promise<void> {
  const r = await api(sh.hub, "POST", `/api/sessions/${name}/send`, { message: [...directives, "@reply done"].join("\n"), wait: true });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  expect(r.body.interaction.status, JSON.stringify(r.body.interaction)).toBe("completed");
}

describe("rollback with code", () => {
  it("restores every work tree byte for byte, and its undo brings the later files back", async () => {
    const dirs: Record<string, string> = {};
    for (const name of ["alice", "bob"]) {
      const r = await api(sh.hub, "POST", "/api/team-spawn", { team: TEAM, name, role: "dev", workDir: sh.work, preset: "full" });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      dirs[name] = r.body.workDir;
      await waitForSession(sh.hub, name, (s) => s.status === "idle");
    }
    const at = (name: string, file: string) => path.join(dirs[name], file);
    await turn("alice", [`@read ${at("alice", "app.txt")}`, `@edit ${at("alice", "app.txt")}|two|two by alice`, `@write ${at("alice", "notes.md")}|# alice`]);
    await turn("bob", [`@write ${at("bob", "src/bob.ts")}|export const bob = 1;`]);
    expect(fs.readFileSync(at("alice", "app.txt"), "utf8")).toBe("one\ntwo by alice\nthree\n");
    const snapshotted = { alice: filesOf(dirs.alice), bob: filesOf(dirs.bob) };
    const snap = await api(sh.hub, "POST", "/api/snapshots", { team: TEAM, id: "before-more" });
    expect(snap.status, JSON.stringify(snap.body)).toBe(201);

    await turn("alice", [
      `@read ${at("alice", "app.txt")}`,
      `@edit ${at("alice", "app.txt")}|three|three by alice`,
      `@write ${at("alice", "later.txt")}|later`,
    ]);
    await turn("bob", [`@bash rm ${at("bob", "keep.txt")}`, `@read ${at("bob", "src/bob.ts")}`, `@edit ${at("bob", "src/bob.ts")}|bob = 1|bob = 2`]);
    const later = { alice: filesOf(dirs.alice), bob: filesOf(dirs.bob) };
    expect(later.alice).not.toEqual(snapshotted.alice);
    expect(later.bob["keep.txt"]).toBeUndefined();
    expect(fs.readFileSync(at("bob", "src/bob.ts"), "utf8")).toBe("export const bob = 2;");

    const back = await api(sh.hub, "POST", `/api/snapshots/before-more/rollback?team=${TEAM}`, {});
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(Object.fromEntries(back.body.code.map((m: { session: string; action: string }) => [m.session, m.action]))).toEqual({
      alice: "restored",
      bob: "restored",
    });
    expect({ alice: filesOf(dirs.alice), bob: filesOf(dirs.bob) }).toEqual(snapshotted);
    expect(fs.readFileSync(at("alice", "app.txt"), "utf8")).toBe("one\ntwo by alice\nthree\n");
    expect(fs.readFileSync(at("bob", "keep.txt"), "utf8")).toBe("kept\n");

    const undo = await api(sh.hub, "POST", `/api/snapshots/${back.body.autoSnapshot}/rollback?team=${TEAM}`, {});
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect({ alice: filesOf(dirs.alice), bob: filesOf(dirs.bob) }).toEqual(later);
  }, 180_000);
});
