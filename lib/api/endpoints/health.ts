import { endpoint, NoInput } from "../endpoint.ts";
import { Health } from "../health.ts";

export const health = {
  get: endpoint({ method: "GET", path: "/health", input: NoInput, output: Health }),
};
