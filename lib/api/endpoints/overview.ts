import { endpoint } from "../endpoint.ts";
import { Overview } from "../overview.ts";
import { TeamRefInput } from "../teams.ts";

export const overview = {
  get: endpoint({ method: "GET", path: "/overview", input: TeamRefInput, output: Overview }),
};
