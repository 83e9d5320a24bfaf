/** The baseline: the same `claude`, started directly in stream-json mode, until its first result. */
import { spawn } from "node:child_process";
import readline from "node:readline";
import { userMessage } from "../../server/supervisor/protocol.ts";

export function directFirstResult(bin: string, args: string[], env: Record<string, string>, cwd: string, prompt: string): Promise<number> {
  const started = performance.now();
  const child = spawn(bin, args, { cwd, env: env as NodeJS.ProcessEnv, stdio: ["pipe", "pipe", "ignore"] });
  child.stdin.write(`${JSON.stringify(userMessage(prompt))}\n`);
  return new Promise((resolve, reject) => {
    const lines = readline.createInterface({ input: child.stdout });
    lines.on("line", (line) => {
      if ((JSON.parse(line) as { type?: string }).type !== "result") return;
      const elapsed = performance.now() - started;
      child.stdin.end();
      child.once("exit", () => resolve(elapsed));
    });
    child.once("error", reject);
  });
}
