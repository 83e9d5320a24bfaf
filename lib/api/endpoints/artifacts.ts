import { endpoint } from "../endpoint.ts";
import {
  ArtifactHistory,
  ArtifactPage,
  ArtifactReaders,
  ArtifactRefInput,
  GetArtifactInput,
  HistoryInput,
  ListArtifactsInput,
  PublishArtifactInput,
  PublishResult,
  RegisterTypeInput,
  TypeInfo,
  TypeList,
  VersionView,
} from "../artifacts.ts";
import { TeamRefInput } from "../teams.ts";

export const artifacts = {
  types: endpoint({ method: "GET", path: "/artifact-types", input: TeamRefInput, output: TypeList }),
  registerType: endpoint({ method: "POST", path: "/artifact-types", input: RegisterTypeInput, output: TypeInfo, status: 201 }),
  list: endpoint({ method: "GET", path: "/artifacts", input: ListArtifactsInput, output: ArtifactPage }),
  publish: endpoint({ method: "POST", path: "/artifacts", input: PublishArtifactInput, output: PublishResult, status: 201 }),
  // A read is recorded (docs/domain.md#reads), so this GET writes.
  get: endpoint({ method: "GET", path: "/artifacts/:id", input: GetArtifactInput, output: VersionView, effect: "write" }),
  history: endpoint({ method: "GET", path: "/artifacts/:id/history", input: HistoryInput, output: ArtifactHistory }),
  readers: endpoint({ method: "GET", path: "/artifacts/:id/readers", input: ArtifactRefInput, output: ArtifactReaders }),
};
