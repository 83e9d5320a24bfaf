/**
 * Builds the dashboard and compiles dist/ once when their sources changed, so every hub and command a test starts
 * runs current code.
 */
import type { TestProject } from "vitest/node";
import { ensureCompiled } from "../scripts/compile-dist.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { ROOT } from "./helpers/hub-process.ts";
import { attackLogPath } from "./security/attack.ts";

export default function setup(project: TestProject) {
  ensureBuild(ROOT, (m) => console.log(`[e2e] ${m}`));
  ensureCompiled((m) => console.log(`[e2e] ${m}`));
  project.provide("attackLog", attackLogPath());
}
