import { endpoint, Unchecked } from "../endpoint.ts";
import { GraphInput } from "../graph.ts";

export const graph = {
  get: endpoint({ method: "GET", path: "/graph", input: GraphInput, output: Unchecked }),
};
