/** `npm run build`: the dashboard bundle, stamped with its sources so `teamhub start` knows it is current. */
import { PROJECT_ROOT } from "../server/version.ts";
import { ensureBuild } from "../server/cli/build-stamp.ts";

console.log(ensureBuild(PROJECT_ROOT, console.log) ? "built" : "the build is already current");
