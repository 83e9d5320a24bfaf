import { endpoint, NoInput, Unchecked } from "../endpoint.ts";

export const health = {
  get: endpoint({ method: "GET", path: "/health", input: NoInput, output: Unchecked }),
};
