#!/usr/bin/env node
// The `teamhub` command. TypeScript sources run through tsx, so nothing needs compiling first.
import { register } from "tsx/esm/api";

register();
await import("../server/cli/index.ts");
