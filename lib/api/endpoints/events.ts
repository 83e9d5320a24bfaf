import { endpoint, Unchecked } from "../endpoint.ts";
import { ListEventsInput } from "../teams.ts";

export const events = {
  list: endpoint({ method: "GET", path: "/events", input: ListEventsInput, output: Unchecked }),
};
