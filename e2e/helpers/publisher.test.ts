import { spawn } from "node:child_process";
import { describe, expect, it } from "vitest";
import { jsonReport } from "./publisher.ts";

describe("a child's JSON report", () => {
  it("is read whole when the process exits before its output arrives", async () => {
    // The child exits at once; a process it started still holds its stdout and prints the report 300 ms later. Read at
    // `exit`, the report would be empty.
    const late = `process.stdout.write(JSON.stringify({ versions: [1, 2, 3] }))`;
    const child = spawn(
      process.execPath,
      [
        "-e",
        `require("node:child_process").spawn(process.execPath, ["-e", ${JSON.stringify(`setTimeout(() => { ${late} }, 300)`)}], { stdio: "inherit", detached: true }).unref()`,
      ],
      { stdio: ["ignore", "pipe", "inherit"] },
    );
    let exited = false;
    child.once("exit", () => (exited = true));
    const report = await jsonReport<{ versions: number[] }>(child, "test child");
    expect(exited).toBe(true);
    expect(report).toEqual({ versions: [1, 2, 3] });
  });

  it("is refused, naming the process, when it is not JSON", async () => {
    const child = spawn(process.execPath, ["-e", `process.stdout.write("half a rep")`], { stdio: ["ignore", "pipe", "inherit"] });
    await expect(jsonReport(child, "test child")).rejects.toThrow(`test child's report is not JSON: "half a rep"`);
  });
});
