import { endpoint, Unchecked } from "../endpoint.ts";
import {
  CompleteContractInput,
  ContractRefInput,
  CreateContractInput,
  DependencyChangeInput,
  ListContractsInput,
  ReasonInput,
  ReassignContractInput,
  ReopenContractInput,
} from "../contracts.ts";

export const contracts = {
  list: endpoint({ method: "GET", path: "/contracts", input: ListContractsInput, output: Unchecked }),
  create: endpoint({ method: "POST", path: "/contracts", input: CreateContractInput, output: Unchecked, status: 201 }),
  get: endpoint({ method: "GET", path: "/contracts/:id", input: ContractRefInput, output: Unchecked }),
  complete: endpoint({ method: "POST", path: "/contracts/:id/complete", input: CompleteContractInput, output: Unchecked }),
  removeDependency: endpoint({ method: "DELETE", path: "/contracts/:id/dependencies", input: DependencyChangeInput, output: Unchecked }),
  addDependency: endpoint({ method: "POST", path: "/contracts/:id/dependencies", input: DependencyChangeInput, output: Unchecked }),
  fail: endpoint({ method: "POST", path: "/contracts/:id/fail", input: ReasonInput, output: Unchecked }),
  reassign: endpoint({ method: "POST", path: "/contracts/:id/reassign", input: ReassignContractInput, output: Unchecked }),
  reopen: endpoint({ method: "POST", path: "/contracts/:id/reopen", input: ReopenContractInput, output: Unchecked }),
  start: endpoint({ method: "POST", path: "/contracts/:id/start", input: ContractRefInput, output: Unchecked }),
};
