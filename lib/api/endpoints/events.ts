import { endpoint } from "../endpoint.ts";
import { EventList } from "../events.ts";
import { ListEventsInput } from "../teams.ts";

export const events = {
  list: endpoint({ method: "GET", path: "/events", input: ListEventsInput, output: EventList }),
};
