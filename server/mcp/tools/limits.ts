/** Usage limits over MCP (docs/limits.md): the accounts' holds and warnings, and a person's release of a hold. */
import { api } from "../../../lib/api/endpoints/index.ts";
import { tool } from "../tool.ts";
import { TEAM } from "./common.ts";

export const limitTools = [
  tool({
    name: "account_limits",
    title: "Usage limits",
    description:
      "The accounts the team's sessions run on whose usage window is used up (limited: their turns wait until resetsAt, then go again in order) " +
      "or filling up (warning), with the sessions each holds.",
    endpoint: api.limits.list,
    describe: { team: TEAM },
  }),
  tool({
    name: "account_release",
    title: "Release a usage-limit hold",
    description:
      "Send the turns a used-up account holds now instead of at the reset (they may hit the limit again), or with cancel: true cancel them. " +
      "The operator and the leads of the held sessions' teams only.",
    endpoint: api.limits.release,
    describe: { account: "The account id, as account_limits lists it.", cancel: "true: cancel the waiting turns instead of sending them." },
  }),
];
