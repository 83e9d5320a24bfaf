/** Builds the dashboard once when its sources changed, so every hub a test starts serves current code. */
import type { TestProject } from "vitest/node";
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { ROOT } from "./helpers/hub-process.ts";
import { attackLogPath } from "./security/attack.ts";

export default function setup(project: TestProject) {
  ensureBuild(ROOT, (m) => console.log(`[e2e] ${m}`));
  project.provide("attackLog", attackLogPath());
}
