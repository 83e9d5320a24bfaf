import { endpoint, Unchecked } from "../endpoint.ts";
import { TeamRefInput } from "../teams.ts";

export const overview = {
  get: endpoint({ method: "GET", path: "/overview", input: TeamRefInput, output: Unchecked }),
};
