/**
 * Each session's own CLI config dir: made private under the session dir, the CLI pointed at it and at
 * the user's login only, and the conversation it opens brought in (a fork's from its parent, one from
 * before per-session dirs from the user's config dir) without following any link a session left.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { sessionConfig } from "./config-dir.ts";
import { tempDir } from "../testing/temp-dir.ts";

let root: string;
let home: string;
beforeEach(() => {
  root = fs.realpathSync(tempDir("config-dir"));
  home = path.join(root, "home");
  fs.mkdirSync(home);
});

const put = (file: string, content: string) => {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
};
const session = (pk: number) => path.join(root, "data", "sessions", String(pk));
const conversation = (configDir: string, id: string, slug = "-w") => path.join(configDir, "projects", slug, `${id}.jsonl`);
const files = (dir: string) => (fs.existsSync(dir) ? (fs.readdirSync(dir, { recursive: true }) as string[]).sort() : []);

describe("the session's config dir", () => {
  it("is its own, private, and named by CLAUDE_CONFIG_DIR; the user's config is listed to be hidden", async () => {
    const { env, userConfig } = await sessionConfig({ HOME: home, PATH: "/bin", ANTHROPIC_API_KEY: "k" }, session(1), null);
    const own = path.join(session(1), "claude");
    expect(env).toEqual({ HOME: home, PATH: "/bin", ANTHROPIC_API_KEY: "k", CLAUDE_CONFIG_DIR: own });
    expect(fs.statSync(own).mode & 0o777).toBe(0o700);
    expect(userConfig).toEqual([path.join(home, ".claude"), path.join(home, ".claude.json")]);
  });

  it("gets the user's login through CLAUDE_SECURESTORAGE_CONFIG_DIR: ~/.claude, or the CLAUDE_CONFIG_DIR the hub's claude uses", async () => {
    put(path.join(home, ".claude", ".credentials.json"), "{}");
    expect((await sessionConfig({ HOME: home }, session(1), null)).env.CLAUDE_SECURESTORAGE_CONFIG_DIR).toBe(path.join(home, ".claude"));
    const work = path.join(root, "work-claude");
    put(path.join(work, ".credentials.json"), "{}");
    const { env, userConfig } = await sessionConfig({ HOME: home, CLAUDE_CONFIG_DIR: work }, session(1), null);
    expect(env).toEqual({ HOME: home, CLAUDE_CONFIG_DIR: path.join(session(1), "claude"), CLAUDE_SECURESTORAGE_CONFIG_DIR: work });
    expect(userConfig).toEqual([work, path.join(home, ".claude"), path.join(home, ".claude.json")]);
  });

  it("without a login there, names no login dir, and one passed in by configuration is dropped", async () => {
    put(path.join(home, ".claude", "settings.json"), "{}");
    const { env } = await sessionConfig({ HOME: home, CLAUDE_SECURESTORAGE_CONFIG_DIR: path.join(root, "elsewhere") }, session(1), null);
    expect(env).toEqual({ HOME: home, CLAUDE_CONFIG_DIR: path.join(session(1), "claude") });
  });
});

describe("the conversation it opens", () => {
  it("for a fork, is copied from the parent's dir into the same project dir; nothing else of the parent comes along", async () => {
    const parent = path.join(session(1), "claude");
    put(conversation(parent, "p"), "parent\n");
    put(path.join(parent, "settings.json"), "{}");
    put(conversation(parent, "other"), "other\n");
    await sessionConfig({ HOME: home }, session(2), { id: "p", parentSessionDir: session(1) });
    const own = path.join(session(2), "claude");
    expect(files(own)).toEqual(["projects", "projects/-w", "projects/-w/p.jsonl"]);
    expect(fs.readFileSync(conversation(own, "p"), "utf8")).toBe("parent\n");
    expect(fs.statSync(conversation(own, "p")).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(conversation(parent, "p"), "utf8")).toBe("parent\n");
  });

  it("for a fork of a live parent, waits until the parent's CLI has written the last message it reported", async () => {
    const parent = path.join(session(1), "claude");
    put(conversation(parent, "p"), '{"uuid":"u1"}\n');
    const launching = sessionConfig({ HOME: home }, session(2), { id: "p", parentSessionDir: session(1), through: "u2" });
    // The CLI writes its conversation up to 100 ms after it reported the message.
    fs.appendFileSync(conversation(parent, "p"), '{"uuid":"u2"}\n');
    await launching;
    expect(fs.readFileSync(conversation(path.join(session(2), "claude"), "p"), "utf8")).toBe('{"uuid":"u1"}\n{"uuid":"u2"}\n');
  });

  it("from before sessions had their own dirs, is copied from the user's config dir on the next launch, once", async () => {
    const user = path.join(home, ".claude");
    put(conversation(user, "c", "-old-work"), "old\n");
    await sessionConfig({ HOME: home }, session(1), { id: "c" });
    const own = path.join(session(1), "claude");
    expect(fs.readFileSync(conversation(own, "c", "-old-work"), "utf8")).toBe("old\n");
    // The session's own copy goes on from there; the user's is not read again.
    fs.appendFileSync(conversation(own, "c", "-old-work"), "new\n");
    await sessionConfig({ HOME: home }, session(1), { id: "c" });
    expect(fs.readFileSync(conversation(own, "c", "-old-work"), "utf8")).toBe("old\nnew\n");
  });

  it("a fork of a parent from before per-session dirs finds the conversation in the user's config dir", async () => {
    put(conversation(path.join(home, ".claude"), "p"), "parent\n");
    await sessionConfig({ HOME: home }, session(2), { id: "p", parentSessionDir: session(1) });
    expect(fs.readFileSync(conversation(path.join(session(2), "claude"), "p"), "utf8")).toBe("parent\n");
  });

  it("is never read through a link a session left in its dir, nor written through one", async () => {
    const secret = path.join(root, "operator-token");
    put(secret, "SECRET\n");
    const parent = path.join(session(1), "claude");
    fs.mkdirSync(path.join(parent, "projects", "-w"), { recursive: true });
    fs.symlinkSync(secret, conversation(parent, "p"));
    // A project dir that is a link to a place holding a conversation of that name.
    put(conversation(path.join(root, "elsewhere"), "q"), "SECRET\n");
    fs.symlinkSync(path.join(root, "elsewhere", "projects", "-w"), path.join(parent, "projects", "-linked"));
    await sessionConfig({ HOME: home }, session(2), { id: "p", parentSessionDir: session(1) });
    await sessionConfig({ HOME: home }, session(3), { id: "q", parentSessionDir: session(1) });
    expect(files(path.join(session(2), "claude"))).toEqual([]);
    expect(files(path.join(session(3), "claude"))).toEqual([]);

    // The session's own project dir replaced by a link out: the copy is not written there.
    put(conversation(path.join(home, ".claude"), "c"), "old\n");
    const own = path.join(session(4), "claude");
    const target = path.join(root, "target");
    fs.mkdirSync(target);
    fs.mkdirSync(path.join(own, "projects"), { recursive: true });
    fs.symlinkSync(target, path.join(own, "projects", "-w"));
    await sessionConfig({ HOME: home }, session(4), { id: "c" });
    expect(files(target)).toEqual([]);
  });
});
