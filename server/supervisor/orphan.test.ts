/**
 * A sandboxed process left by a hub killed with -9 is ended so that it can still write what it holds: the SIGTERM
 * reaches the process inside bubblewrap, not bubblewrap, which would die and take it down with SIGKILL.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkSandbox } from "./sandbox-check.ts";
import { sandboxCommand } from "./sandbox.ts";
import { endOrphan } from "./orphan.ts";
import { tempDir } from "../testing/temp-dir.ts";

const bwrap = checkSandbox("auto", "bwrap");

/** Starts `script` as a session's process would run, detached as a process the hub lost; resolves once it is running. */
async function orphan(work: string, script: string, marker: string) {
  const env: Record<string, string> = { HOME: path.join(work, "home"), TMPDIR: path.join(work, "tmp"), PATH: "/usr/bin:/bin" };
  const cmd = await sandboxCommand({
    bwrap: bwrap.kind === "bubblewrap" ? bwrap.bin : "bwrap",
    bin: "/bin/sh",
    args: ["-c", script, marker],
    workDir: work,
    env,
    hidden: [],
    protectedPaths: [],
  });
  const child = spawn(cmd.bin, cmd.args, { cwd: cmd.cwd, env: env as NodeJS.ProcessEnv, detached: true, stdio: ["ignore", "pipe", "pipe", "pipe"] });
  await new Promise<void>((resolve) => child.stdout!.once("data", () => resolve()));
  return child;
}

describe.skipIf(bwrap.kind !== "bubblewrap")("ending an orphaned session process", () => {
  it("lets the process inside the sandbox handle SIGTERM (it writes what it buffered), and the sandbox ends with it", async () => {
    const work = tempDir("orphan");
    const marker = `conversation-${process.pid}-a`;
    const child = await orphan(work, `trap 'echo flushed > written; exit 0' TERM; echo up; while :; do sleep 0.05; done`, marker);
    const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
    await endOrphan(child.pid!, marker);
    expect(fs.readFileSync(path.join(work, "written"), "utf8")).toBe("flushed\n");
    // bubblewrap exits as the process inside it did, not of the signal.
    expect(await exited).toEqual({ code: 0, signal: null });
  });

  it("kills the whole sandbox when the process ignores SIGTERM past the grace period", async () => {
    const work = tempDir("orphan");
    const marker = `conversation-${process.pid}-b`;
    const child = await orphan(work, `trap '' TERM; echo up; while :; do sleep 0.05; done`, marker);
    const exited = new Promise((resolve) => child.once("exit", (_code, signal) => resolve(signal)));
    await endOrphan(child.pid!, marker, 300);
    expect(await exited).toBe("SIGKILL");
  });

  it("leaves alone a process whose command line does not name the conversation (its pid was reused)", async () => {
    const work = tempDir("orphan");
    const child = await orphan(work, `echo up; while :; do sleep 0.05; done`, `conversation-${process.pid}-c`);
    await endOrphan(child.pid!, "some-other-conversation", 300);
    expect(child.exitCode).toBeNull();
    expect(child.signalCode).toBeNull();
    child.kill("SIGKILL");
    await new Promise((resolve) => child.once("exit", resolve));
  });
});
