import { endpoint } from "../endpoint.ts";
import { GraphInput, GraphView } from "../graph.ts";

export const graph = {
  get: endpoint({ method: "GET", path: "/graph", input: GraphInput, output: GraphView }),
};
