/**
 * The tools that are not an operation of the catalog: an agent's own way into one (waiting for a reply by default,
 * naming itself by default) and what the hub tells an agent about itself.
 */
import { z } from "zod";
import { SendInput } from "../../lib/api/sessions.ts";
import { Flag } from "../../lib/api/common.ts";
import { MemberStatus, UpsertMemberInput } from "../../lib/api/roster.ts";
import { SESSION_NAME, TEAM, WAIT, WAIT_TIMEOUT } from "../operations/fields.ts";
import { tool } from "./tool.ts";

/** Agents want the answer in the tool result; waiting is their default. */
const AgentSendInput = SendInput.extend({ wait: Flag.default(true) });

/** Status updates default to the caller's own roster entry. */
const UpdateStatusInput = UpsertMemberInput.extend({ name: UpsertMemberInput.shape.name.optional() });

export const AGENT_TOOLS = [
  tool({
    name: "send_message",
    title: "Send a message to a session",
    description:
      "Send a user message to a session and (by default) wait for its reply; a stopped session is resumed first, a busy or paused one queues the message. " +
      "Returns {session, interaction: {response, costUsd, turns, status, …}, completed}.",
    schema: AgentSendInput,
    describe: { name: SESSION_NAME, message: "The message.", wait: WAIT, waitTimeoutMs: WAIT_TIMEOUT },
    kind: "write",
    run: (s, actor, input, signal) => s.sessions.send(actor, input, signal),
  }),
  tool({
    name: "team_update_status",
    title: "Update your status",
    description: "Join the team or update your own roster entry: status (idle | busy | waiting | offline), role and current task.",
    schema: UpdateStatusInput,
    describe: {
      team: TEAM,
      name: "Only operators may update someone else; omit to update yourself.",
      role: "Your role, e.g. 'backend'.",
      status: `One of ${MemberStatus.options.join(", ")}.`,
      currentTask: "What you are working on now (null to clear).",
    },
    kind: "write",
    run: (s, actor, input) => s.roster.upsert(actor, { ...input, name: input.name ?? actor.name }),
  }),
  tool({
    name: "server_version",
    title: "Server version",
    description: "The hub's version, when it started, and who you are to it.",
    schema: z.object({}),
    kind: "read",
    run: async (s, actor) => ({ name: "teamhub", version: s.info.version, startedAt: s.info.startedAt, you: actor.name, kind: actor.kind }),
  }),
];
