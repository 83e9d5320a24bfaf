/** Reactive pipelines: trigger → condition → action rules that run after each matching event (docs/domain.md#pipelines). */
import {
  createPipeline,
  deletePipeline,
  dryRun,
  getPipeline,
  listPipelines,
  pausePipeline,
  resumePipeline,
  updatePipeline,
  validatePipeline,
} from "../domain/pipelines/pipelines.service.ts";
import { matchingEvents } from "../domain/pipelines/matching-events.ts";
import { area } from "./define.ts";
import { CURSOR, LIMIT, TEAM } from "./fields.ts";

const PIPELINE_ID = "Pipeline id: lowercase letters, digits, '.', '_' or '-'.";
const RULE =
  "A rule {trigger, condition?, action, rateLimit?}. trigger: {type: artifact_published | artifact_version_bumped | artifact_stale | contract_completed | contract_failed | " +
  "contract_reopened | message_received, artifactType?, artifactId?, contractId?, publisher?, to?}. condition: a CEL expression over the event's variables " +
  "(artifact triggers: event, artifact {id, type, name, version, publisher}, data; contract triggers: event, contract {id, status, assignee, retryCount, …}; " +
  'message_received: event, message {from, to, kind, text}), e.g. "data.failed > 0". action: {type: notify_session, target, message} | {type: send_to_session, target, message} | ' +
  "{type: broadcast, message} | {type: reopen_contract, contractId, reason} | {type: create_contract, contract: {id, title, assignee, …}} | {type: invalidate_downstream, artifactId?}; " +
  'string fields accept ${…} templates such as "Failed tests: ${data.failed}". rateLimit: {max, perSeconds}.';

export const pipelines = area("pipelines", {
  create: {
    may: "member",
    serve: ({ deps }, a, i) => createPipeline(deps, a, i),
    mcp: {
      name: "pipeline_create",
      title: "Create a reactive pipeline",
      description: `Create trigger → condition → action rules that run after each matching event, exactly once per (rule, event). Conditions and templates are checked now. ${RULE}`,
      describe: { team: TEAM, id: PIPELINE_ID, rules: "1–100 rules as described above.", status: "'active' (default) or 'paused'." },
    },
  },
  update: {
    may: "pipeline.update",
    serve: ({ deps }, a, i) => updatePipeline(deps, a, i),
    mcp: {
      name: "pipeline_update",
      title: "Change a pipeline's rules",
      description: `Replace a pipeline's rules, checked as on create; the new rules act on events after this call only. ${RULE}`,
      describe: { team: TEAM, id: PIPELINE_ID, rules: "1–100 rules as described above; they replace all the current ones." },
    },
  },
  list: {
    may: "member",
    serve: ({ deps }, _, i) => listPipelines(deps, i),
    mcp: {
      name: "pipeline_list",
      title: "List pipelines",
      description: "The team's pipelines with their rules and execution counts by outcome.",
      describe: { team: TEAM },
    },
  },
  get: {
    may: "member",
    serve: ({ deps }, _, i) => getPipeline(deps, i),
    mcp: {
      name: "pipeline_get",
      title: "Get a pipeline and its log",
      description: "A pipeline's rules and its execution log, newest first: per (rule, event) the condition result, outcome and error.",
      describe: { team: TEAM, id: PIPELINE_ID, limit: LIMIT, cursor: CURSOR },
    },
  },
  pause: {
    may: "pipeline.pause",
    serve: ({ deps }, a, i) => pausePipeline(deps, a, i),
    mcp: {
      name: "pipeline_pause",
      title: "Pause a pipeline",
      description: "Stop a pipeline from acting; events while it is paused are not acted on later.",
      describe: { team: TEAM, id: PIPELINE_ID },
    },
  },
  resume: {
    may: "pipeline.resume",
    serve: ({ deps }, a, i) => resumePipeline(deps, a, i),
    mcp: {
      name: "pipeline_resume",
      title: "Resume a pipeline",
      description: "Let a paused pipeline act on new events again.",
      describe: { team: TEAM, id: PIPELINE_ID },
    },
  },
  delete: {
    may: "pipeline.delete",
    serve: ({ deps }, a, i) => deletePipeline(deps, a, i),
    mcp: {
      name: "pipeline_delete",
      title: "Delete a pipeline",
      description: "Remove a pipeline (its execution log is kept).",
      describe: { team: TEAM, id: PIPELINE_ID },
    },
  },
  dryRun: {
    may: "member",
    serve: ({ deps }, a, i) => dryRun(deps, a, i),
    mcp: {
      name: "pipeline_dry_run",
      title: "Dry-run a rule",
      description:
        "What one rule would do for a sample event or a logged event: whether it fires, the condition's result, the rendered action. Nothing is written.",
      describe: {
        team: TEAM,
        rule: RULE,
        event: "A sample event {type, payload, data?}, e.g. {type: 'artifact.published', payload: {artifactId, type, version}, data: {...}}.",
        eventId: "Or the id of an event from the log.",
      },
    },
  },
  matchingEvents: {
    may: "member",
    serve: ({ deps }, a, i) => matchingEvents(deps, a, i),
    mcp: { none: "the pipeline editor's preview of which events a trigger matches" },
  },
  validate: {
    may: "member",
    serve: ({ deps }, _, i) => validatePipeline(deps, i),
    mcp: { none: "the pipeline editor's check as the rules are typed; pipeline_create refuses the same errors" },
  },
});
