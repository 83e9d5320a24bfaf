/** Artifacts and their types, contracts, lineage and the canvas's graph. */
import type { Operations } from "../operations.ts";
import { artifactHistory, artifactReaders, getArtifact, listArtifacts, publishArtifact } from "../domain/artifacts/artifacts.service.ts";
import { listTypes, registerType } from "../domain/artifacts/type-registry.ts";
import {
  addDependency,
  completeContractCommand,
  createContract,
  failContract,
  getContract,
  listContracts,
  reassignContract,
  removeDependency,
  reopenContract,
  startContract,
} from "../domain/contracts/contracts.service.ts";
import { audit, impact, lineage, staleArtifacts } from "../domain/lineage/lineage.service.ts";
import type { ServiceContext } from "./context.ts";

export const artifactServices = ({ deps }: ServiceContext) =>
  ({
    publish: (a, i) => publishArtifact(deps, a, i),
    get: (a, i) => getArtifact(deps, a, i),
    list: (_, i) => listArtifacts(deps, i),
    history: (_, i) => artifactHistory(deps, i),
    readers: (_, i) => artifactReaders(deps, i),
    types: (_, i) => listTypes(deps, i),
    registerType: (a, i) => registerType(deps, a, i),
  }) satisfies Operations<"artifacts">;

export const contractServices = ({ deps }: ServiceContext) =>
  ({
    create: (a, i) => createContract(deps, a, i),
    get: (_, i) => getContract(deps, i),
    list: (_, i) => listContracts(deps, i),
    start: (a, i) => startContract(deps, a, i),
    complete: (a, i) => completeContractCommand(deps, a, i),
    fail: (a, i) => failContract(deps, a, i),
    reopen: (a, i) => reopenContract(deps, a, i),
    reassign: (a, i) => reassignContract(deps, a, i),
    addDependency: (a, i) => addDependency(deps, a, i),
    removeDependency: (a, i) => removeDependency(deps, a, i),
  }) satisfies Operations<"contracts">;

export const lineageServices = ({ deps }: ServiceContext) =>
  ({
    graph: (_, i) => lineage(deps, i),
    impact: (_, i) => impact(deps, i),
    stale: (_, i) => staleArtifacts(deps, i),
    audit: (_, i) => audit(deps, i),
  }) satisfies Operations<"lineage">;
