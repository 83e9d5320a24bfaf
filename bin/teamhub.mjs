#!/usr/bin/env node
// The `teamhub` command. The installed package runs its compiled JavaScript (dist/); a clone runs the TypeScript
// sources through tsx, a dev dependency, so nothing needs compiling there (docs/distribution.md).
import fs from "node:fs";

const sources = new URL("../server/cli/index.ts", import.meta.url);
if (fs.existsSync(sources)) {
  const { register } = await import("tsx/esm/api");
  register();
  await import(sources.href);
} else {
  await import("../dist/cli/teamhub.js");
}
