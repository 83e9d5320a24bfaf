import { tool } from "../tool.ts";
import { api } from "../../../lib/api/endpoints/index.ts";
import { CURSOR, LIMIT, TEAM } from "./common.ts";

const PIPELINE_ID = "Pipeline id: lowercase letters, digits, '.', '_' or '-'.";
const RULE =
  "A rule {trigger, condition?, action, rateLimit?}. trigger: {type: artifact_published | artifact_version_bumped | artifact_stale | contract_completed | contract_failed | " +
  "contract_reopened | message_received, artifactType?, artifactId?, contractId?, publisher?, to?}. condition: a CEL expression over the event's variables " +
  "(artifact triggers: event, artifact {id, type, name, version, publisher}, data; contract triggers: event, contract {id, status, assignee, retryCount, …}; " +
  'message_received: event, message {from, to, kind, text}), e.g. "data.failed > 0". action: {type: notify_session, target, message} | {type: send_to_session, target, message} | ' +
  "{type: broadcast, message} | {type: reopen_contract, contractId, reason} | {type: create_contract, contract: {id, title, assignee, …}} | {type: invalidate_downstream, artifactId?}; " +
  'string fields accept ${…} templates such as "Failed tests: ${data.failed}". rateLimit: {max, perSeconds}.';

export const pipelineTools = [
  tool({
    name: "pipeline_create",
    title: "Create a reactive pipeline",
    description: `Create trigger → condition → action rules that run after each matching event, exactly once per (rule, event). Conditions and templates are checked now. ${RULE}`,
    endpoint: api.pipelines.create,
    describe: { team: TEAM, id: PIPELINE_ID, rules: "1–100 rules as described above.", status: "'active' (default) or 'paused'." },
  }),
  tool({
    name: "pipeline_update",
    title: "Change a pipeline's rules",
    description: `Replace a pipeline's rules, checked as on create; the new rules act on events after this call only. Its creator or a lead of the team may. ${RULE}`,
    endpoint: api.pipelines.update,
    describe: { team: TEAM, id: PIPELINE_ID, rules: "1–100 rules as described above; they replace all the current ones." },
  }),
  tool({
    name: "pipeline_list",
    title: "List pipelines",
    description: "The team's pipelines with their rules and execution counts by outcome.",
    endpoint: api.pipelines.list,
    describe: { team: TEAM },
  }),
  tool({
    name: "pipeline_get",
    title: "Get a pipeline and its log",
    description: "A pipeline's rules and its execution log, newest first: per (rule, event) the condition result, outcome and error.",
    endpoint: api.pipelines.get,
    describe: { team: TEAM, id: PIPELINE_ID, limit: LIMIT, cursor: CURSOR },
  }),
  tool({
    name: "pipeline_pause",
    title: "Pause a pipeline",
    description: "Stop a pipeline from acting; events while it is paused are not acted on later.",
    endpoint: api.pipelines.pause,
    describe: { team: TEAM, id: PIPELINE_ID },
  }),
  tool({
    name: "pipeline_resume",
    title: "Resume a pipeline",
    description: "Let a paused pipeline act on new events again.",
    endpoint: api.pipelines.resume,
    describe: { team: TEAM, id: PIPELINE_ID },
  }),
  tool({
    name: "pipeline_delete",
    title: "Delete a pipeline",
    description: "Remove a pipeline (its execution log is kept).",
    endpoint: api.pipelines.delete,
    describe: { team: TEAM, id: PIPELINE_ID },
  }),
  tool({
    name: "pipeline_dry_run",
    title: "Dry-run a rule",
    description:
      "What one rule would do for a sample event or a logged event: whether it fires, the condition's result, the rendered action. Nothing is written.",
    endpoint: api.pipelines.dryRun,
    describe: {
      team: TEAM,
      rule: RULE,
      event: "A sample event {type, payload, data?}, e.g. {type: 'artifact.published', payload: {artifactId, type, version}, data: {...}}.",
      eventId: "Or the id of an event from the log.",
    },
  }),
];
