import { endpoint } from "../endpoint.ts";
import {
  CompleteContractInput,
  ContractChange,
  ContractPage,
  ContractRefInput,
  ContractView,
  CreateContractInput,
  DependencyChangeInput,
  ListContractsInput,
  ReasonInput,
  ReassignContractInput,
  ReopenContractInput,
  StartResult,
} from "../contracts.ts";

export const contracts = {
  list: endpoint({ method: "GET", path: "/contracts", input: ListContractsInput, output: ContractPage }),
  create: endpoint({ method: "POST", path: "/contracts", input: CreateContractInput, output: ContractChange, status: 201 }),
  get: endpoint({ method: "GET", path: "/contracts/:id", input: ContractRefInput, output: ContractView }),
  complete: endpoint({ method: "POST", path: "/contracts/:id/complete", input: CompleteContractInput, output: ContractChange }),
  // Takes an edge off a contract, which changes it and destroys nothing.
  removeDependency: endpoint({ method: "DELETE", path: "/contracts/:id/dependencies", input: DependencyChangeInput, output: ContractView, effect: "write" }),
  addDependency: endpoint({ method: "POST", path: "/contracts/:id/dependencies", input: DependencyChangeInput, output: ContractView }),
  fail: endpoint({ method: "POST", path: "/contracts/:id/fail", input: ReasonInput, output: ContractView }),
  reassign: endpoint({ method: "POST", path: "/contracts/:id/reassign", input: ReassignContractInput, output: ContractView }),
  reopen: endpoint({ method: "POST", path: "/contracts/:id/reopen", input: ReopenContractInput, output: ContractView }),
  start: endpoint({ method: "POST", path: "/contracts/:id/start", input: ContractRefInput, output: StartResult }),
};
