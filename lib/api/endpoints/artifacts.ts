import { endpoint, Unchecked } from "../endpoint.ts";
import { ArtifactRefInput, GetArtifactInput, HistoryInput, ListArtifactsInput, PublishArtifactInput, RegisterTypeInput, VersionView } from "../artifacts.ts";
import { TeamRefInput } from "../teams.ts";

export const artifacts = {
  types: endpoint({ method: "GET", path: "/artifact-types", input: TeamRefInput, output: Unchecked }),
  registerType: endpoint({ method: "POST", path: "/artifact-types", input: RegisterTypeInput, output: Unchecked, status: 201 }),
  list: endpoint({ method: "GET", path: "/artifacts", input: ListArtifactsInput, output: Unchecked }),
  publish: endpoint({ method: "POST", path: "/artifacts", input: PublishArtifactInput, output: Unchecked, status: 201 }),
  get: endpoint({ method: "GET", path: "/artifacts/:id", input: GetArtifactInput, output: VersionView }),
  history: endpoint({ method: "GET", path: "/artifacts/:id/history", input: HistoryInput, output: Unchecked }),
  readers: endpoint({ method: "GET", path: "/artifacts/:id/readers", input: ArtifactRefInput, output: Unchecked }),
};
