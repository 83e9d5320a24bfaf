import { tool } from "../tool.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { CONTRACT_ID, CURSOR, LIMIT, TEAM } from "./common.ts";

const ref = { team: TEAM, id: CONTRACT_ID };
const DEPENDENCY =
  "{type: 'contract', contractId} (that contract must complete first) or {type: 'artifact', artifactId, minVersion?} (that artifact must exist at ≥ minVersion).";

export const contractTools = [
  tool({
    name: "contract_create",
    title: "Create a contract",
    description:
      "Assign work to a team member (any member may assign to any other; you are recorded as the assigner). The contract is 'pending' until its dependencies are met, " +
      "then 'ready'; it completes by itself when its acceptance criteria hold (with only expectedOutputs given, when every required output is published after it became ready).",
    endpoint: api.contracts.create,
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
  }),
  tool({
    name: "contract_start",
    title: "Start a contract",
    description:
      "Start work on a 'ready' contract assigned to you. Returns its inputs and the resolved input artifacts (their data), whose versions are pinned now.",
    endpoint: api.contracts.start,
    describe: ref,
  }),
  tool({
    name: "contract_complete",
    title: "Complete a contract",
    description:
      "Mark your contract completed. Refused with the list of unmet acceptance criteria unless force is true with a reason. Completion makes dependent contracts ready.",
    endpoint: api.contracts.complete,
    describe: {
      ...ref,
      summary: "What was done.",
      force: "Complete even though criteria are unmet (needs reason).",
      reason: "Why the criteria are overridden.",
    },
  }),
  tool({
    name: "contract_fail",
    title: "Fail a contract",
    description: "Mark your contract failed, with the reason (the assigner can reopen it).",
    endpoint: api.contracts.fail,
    describe: { ...ref, reason: "Why it failed." },
  }),
  tool({
    name: "contract_reopen",
    title: "Reopen a contract",
    description: "Reopen a completed or failed contract for another attempt (counts against maxRetries). Evidence must then be published anew.",
    endpoint: api.contracts.reopen,
    describe: { ...ref, reason: "What must change this time." },
  }),
  tool({
    name: "contract_get",
    title: "Get a contract",
    description: "A contract's full state: status and why, assignee, dependencies, expected outputs, criteria, retries, pinned inputs and produced outputs.",
    endpoint: api.contracts.get,
    describe: ref,
  }),
  tool({
    name: "contract_list",
    title: "List contracts",
    description: "The team's contracts, optionally filtered by status, assignee or assigner.",
    endpoint: api.contracts.list,
    describe: {
      team: TEAM,
      status: "pending | ready | in_progress | completed | failed.",
      assignee: "Only contracts assigned to this member.",
      assigner: "Only contracts this member created.",
      limit: LIMIT,
      cursor: CURSOR,
    },
  }),
  tool({
    name: "contract_reassign",
    title: "Reassign a contract",
    description: "Give a contract to another member (its assigner or an operator may). Work in progress goes back to 'ready' for the new assignee.",
    endpoint: api.contracts.reassign,
    describe: { ...ref, assignee: "The new assignee." },
  }),
  tool({
    name: "contract_add_dependency",
    title: "Add a dependency",
    description: "Make a pending or ready contract wait for another contract or artifact. Refused when it would create a cycle.",
    endpoint: api.contracts.addDependency,
    describe: { ...ref, dependency: DEPENDENCY },
  }),
  tool({
    name: "contract_remove_dependency",
    title: "Remove a dependency",
    description: "Stop a pending or ready contract from waiting for a contract or artifact.",
    endpoint: api.contracts.removeDependency,
    describe: { ...ref, dependency: DEPENDENCY },
  }),
];
