/** Contracts: work one member assigns another, which resolves itself when its criteria hold (docs/domain.md#contracts). */
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
import { area } from "./define.ts";
import { CONTRACT_ID, CURSOR, LIMIT, TEAM } from "./fields.ts";

const ref = { team: TEAM, id: CONTRACT_ID };
const DEPENDENCY =
  "{type: 'contract', contractId} (that contract must complete first) or {type: 'artifact', artifactId, minVersion?} (that artifact must exist at ≥ minVersion).";

export const contracts = area("contracts", {
  create: {
    may: "member",
    serve: ({ deps }, a, i) => createContract(deps, a, i),
    mcp: {
      name: "contract_create",
      title: "Create a contract",
      description:
        "Assign work to a team member (any member may assign to any other; you are recorded as the assigner). The contract is 'pending' until its dependencies are met, " +
        "then 'ready'; it completes by itself when its acceptance criteria hold (with only expectedOutputs given, when every required output is published after it became ready).",
      describe: {
        team: TEAM,
        id: CONTRACT_ID,
        title: "Short title of the work.",
        description: "What to do, in detail.",
        assignee: "The member who does the work.",
        inputs: "JSON object handed to the assignee; by convention {context: '…'}.",
        dependencies: `What must be done first: a list of ${DEPENDENCY}`,
        expectedOutputs: "Artifacts the work must publish: [{artifactType, artifactId?, required = true}].",
        acceptanceCriteria:
          "All must hold for completion: {type:'artifact_published', artifactId, minVersion?}, {type:'tests_passing', artifactId, minPassRate? = 1, maxFailed? = 0}, " +
          "{type:'contract_completed', contractId}, {type:'all_outputs_published'}.",
        priority: "low | normal | high | critical.",
        timeoutMs: "Fail with reason 'timeout' unless completed within this many milliseconds of creation (or of a reopen).",
        maxRetries: "How many times it may be reopened (default 3).",
      },
    },
  },
  start: {
    may: "contract.start",
    serve: ({ deps }, a, i) => startContract(deps, a, i),
    mcp: {
      name: "contract_start",
      title: "Start a contract",
      description:
        "Start work on a 'ready' contract assigned to you. Returns its inputs and the resolved input artifacts (their data), whose versions are pinned now.",
      describe: ref,
    },
  },
  complete: {
    may: "contract.complete",
    serve: ({ deps }, a, i) => completeContractCommand(deps, a, i),
    mcp: {
      name: "contract_complete",
      title: "Complete a contract",
      description:
        "Mark your contract completed. Refused with the list of unmet acceptance criteria unless force is true with a reason. Completion makes dependent contracts ready.",
      describe: {
        ...ref,
        summary: "What was done.",
        force: "Complete even though criteria are unmet (needs reason).",
        reason: "Why the criteria are overridden.",
      },
    },
  },
  fail: {
    may: "contract.fail",
    serve: ({ deps }, a, i) => failContract(deps, a, i),
    mcp: {
      name: "contract_fail",
      title: "Fail a contract",
      description: "Mark your contract failed, with the reason (the assigner can reopen it).",
      describe: { ...ref, reason: "Why it failed." },
    },
  },
  reopen: {
    may: "contract.reopen",
    serve: ({ deps }, a, i) => reopenContract(deps, a, i),
    mcp: {
      name: "contract_reopen",
      title: "Reopen a contract",
      description: "Reopen a completed or failed contract for another attempt (counts against maxRetries). Evidence must then be published anew.",
      describe: { ...ref, reason: "What must change this time." },
    },
  },
  get: {
    may: "member",
    serve: ({ deps }, _, i) => getContract(deps, i),
    mcp: {
      name: "contract_get",
      title: "Get a contract",
      description: "A contract's full state: status and why, assignee, dependencies, expected outputs, criteria, retries, pinned inputs and produced outputs.",
      describe: ref,
    },
  },
  list: {
    may: "member",
    serve: ({ deps }, _, i) => listContracts(deps, i),
    mcp: {
      name: "contract_list",
      title: "List contracts",
      description: "The team's contracts, optionally filtered by status, assignee or assigner.",
      describe: {
        team: TEAM,
        status: "pending | ready | in_progress | completed | failed.",
        assignee: "Only contracts assigned to this member.",
        assigner: "Only contracts this member created.",
        limit: LIMIT,
        cursor: CURSOR,
      },
    },
  },
  reassign: {
    may: "contract.reassign",
    serve: ({ deps }, a, i) => reassignContract(deps, a, i),
    mcp: {
      name: "contract_reassign",
      title: "Reassign a contract",
      description: "Give a contract to another member. Work in progress goes back to 'ready' for the new assignee.",
      describe: { ...ref, assignee: "The new assignee." },
    },
  },
  addDependency: {
    may: "contract.change_dependencies",
    serve: ({ deps }, a, i) => addDependency(deps, a, i),
    mcp: {
      name: "contract_add_dependency",
      title: "Add a dependency",
      description: "Make a pending or ready contract wait for another contract or artifact. Refused when it would create a cycle.",
      describe: { ...ref, dependency: DEPENDENCY },
    },
  },
  removeDependency: {
    may: "contract.change_dependencies",
    serve: ({ deps }, a, i) => removeDependency(deps, a, i),
    mcp: {
      name: "contract_remove_dependency",
      title: "Remove a dependency",
      description: "Stop a pending or ready contract from waiting for a contract or artifact.",
      describe: { ...ref, dependency: DEPENDENCY },
    },
  },
});
