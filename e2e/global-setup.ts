/** Builds the dashboard once when its sources changed, so every hub a test starts serves current code. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { ROOT } from "./helpers/hub-process.ts";
import { attackSummary } from "./security/attack.ts";

export default function setup(project: TestProject) {
  ensureBuild(ROOT, (m) => console.log(`[e2e] ${m}`));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "teamhub-attacks-"));
  const log = path.join(dir, "attacks.jsonl");
  project.provide("attackLog", log);
  return () => {
    const summary = attackSummary(log);
    if (summary) console.log(`\n[security] ${summary}`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
