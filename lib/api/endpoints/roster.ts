import { z } from "zod";
import { endpoint } from "../endpoint.ts";
import { MemberView, UpsertMemberInput } from "../roster.ts";
import { TeamRefInput } from "../teams.ts";

export const roster = {
  list: endpoint({ method: "GET", path: "/roster", input: TeamRefInput, output: z.array(MemberView) }),
  upsert: endpoint({ method: "POST", path: "/roster", input: UpsertMemberInput, output: MemberView }),
};
