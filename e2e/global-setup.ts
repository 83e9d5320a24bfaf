/** Builds the dashboard once when its sources changed, so every hub a test starts serves current code. */
import { ensureBuild } from "../server/cli/build-stamp.ts";
import { ROOT } from "./helpers/hub-process.ts";

export default function setup() {
  ensureBuild(ROOT, (m) => console.log(`[e2e] ${m}`));
}
