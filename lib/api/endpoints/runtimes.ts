import { endpoint, NoInput } from "../endpoint.ts";
import { RuntimeView } from "../runtimes.ts";
import { z } from "zod";

export const runtimes = {
  list: endpoint({ method: "GET", path: "/runtimes", input: NoInput, output: z.array(RuntimeView) }),
};
