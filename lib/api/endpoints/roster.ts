import { endpoint, Unchecked } from "../endpoint.ts";
import { UpsertMemberInput } from "../roster.ts";
import { TeamRefInput } from "../teams.ts";

export const roster = {
  list: endpoint({ method: "GET", path: "/roster", input: TeamRefInput, output: Unchecked }),
  upsert: endpoint({ method: "POST", path: "/roster", input: UpsertMemberInput, output: Unchecked }),
};
