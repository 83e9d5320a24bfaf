/** `npm run build:dist`: dist/ compiled from the current sources (scripts/compile-dist.ts), as the e2e tests run it. */
import { ensureCompiled } from "./compile-dist.ts";

console.log(ensureCompiled(console.log) ? "compiled" : "dist/ is already current");
