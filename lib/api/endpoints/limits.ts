import { endpoint } from "../endpoint.ts";
import { z } from "zod";
import { AccountHold, ReleaseAccountInput, ReleaseResult } from "../limits.ts";
import { TeamRefInput } from "../teams.ts";

/** Usage limits of the accounts sessions run on (docs/limits.md). */
export const limits = {
  /** Holds and warnings of the accounts the team's sessions run on. */
  list: endpoint({ method: "GET", path: "/accounts", input: TeamRefInput, output: z.array(AccountHold) }),
  /** Release a held account now (`cancel`: cancel the turns it holds instead): the operator and the held teams' leads. */
  release: endpoint({ method: "POST", path: "/accounts/:account/release", input: ReleaseAccountInput, output: ReleaseResult, effect: "destructive" }),
};
