import { endpoint } from "../endpoint.ts";
import { EventPage } from "../event-log.ts";
import { ListEventsInput } from "../teams.ts";

export const events = {
  list: endpoint({ method: "GET", path: "/events", input: ListEventsInput, output: EventPage }),
};
