import { z } from "zod";
import { endpoint, NoInput } from "../endpoint.ts";
import { HubView } from "../hubs.ts";

export const hubs = {
  list: endpoint({ method: "GET", path: "/hubs", input: NoInput, output: z.array(HubView) }),
};
