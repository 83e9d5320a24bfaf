/**
 * The table of domain operations every front door calls. Each entry takes the acting principal
 * and an already-parsed input, so an adapter is: parse → pick an entry → map errors. The server
 * hands it to each door it builds (server/server.ts).
 */
import type { ReleaseAccountInput } from "../lib/api/limits.ts";
import type { TeamRefInput } from "../lib/api/teams.ts";
import { accountHolds, releaseAccount } from "./domain/accounts/limits.ts";
import { matchingEvents } from "./domain/pipelines/matching-events.ts";
import { OPERATOR, type Principal } from "./domain/principal.ts";
import type { DomainDeps } from "./domain/deps.ts";
import type {
  CreateContract,
  CompleteContractInput,
  ContractRefInput,
  DependencyChangeInput,
  ListContractsInput,
  ReasonInput,
  ReassignContractInput,
  ReopenContractInput,
} from "../lib/api/contracts.ts";
import type { ArtifactRefInput, GetArtifactInput, HistoryInput, ListArtifactsInput, PublishArtifactInput, RegisterTypeInput } from "../lib/api/artifacts.ts";
import type { ListEventsInput } from "../lib/api/teams.ts";
import type { Health } from "../lib/api/health.ts";
import { infoOf, type ClaudeCodeProbe } from "./claude-version.ts";
import { archiveTeam, createTeam, listTeams } from "./domain/teams/teams.service.ts";
import { runQuickStartDemo } from "./domain/teams/quickstart-demo.ts";
import { getTeamSettings, updateTeamSettings } from "./domain/teams/settings.ts";
import { teamPermissions } from "./domain/auth/permissions.ts";
import type { UpdateTeamSettingsInput } from "../lib/api/team-settings.ts";
import { artifactHistory, artifactReaders, getArtifact, listArtifacts, publishArtifact } from "./domain/artifacts/artifacts.service.ts";
import { listTypes, registerType } from "./domain/artifacts/type-registry.ts";
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
} from "./domain/contracts/contracts.service.ts";
import { eventsAfter, lastEventId, listEvents } from "./domain/events/events.service.ts";
import { overview } from "./domain/overview/overview.service.ts";
import { authenticate, createToken, listTokens, readOperatorToken, revokeTokens } from "./domain/auth/tokens.service.ts";
import { grantLead, listLeads, revokeLead } from "./domain/auth/grants.service.ts";
import { listHubs } from "./domain/hubs/hubs.service.ts";
import type { LeadRefInput } from "../lib/api/leads.ts";
import type { ListBudgetsInput, OwnBudgetsInput, SetBudgetInput } from "../lib/api/budgets.ts";
import { listBudgets, ownBudgets, setBudget } from "./domain/budgets/budgets.service.ts";
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
} from "./domain/pipelines/pipelines.service.ts";
import { listRoster, upsertMember } from "./domain/roster/roster.service.ts";
import { audit, impact, lineage, staleArtifacts } from "./domain/lineage/lineage.service.ts";
import { graphView } from "./domain/graph/graph-view.ts";
import type { GraphInput } from "../lib/api/graph.ts";
import type { AuditInput, ImpactInput, LineageInput, StaleInput } from "../lib/api/lineage.ts";
import { deleteSnapshot, getSnapshot, listSnapshots, takeSnapshot } from "./domain/snapshots/snapshots.service.ts";
import { replay, replayPreview, rollback, rollbackPreview } from "./domain/snapshots/rollback.service.ts";
import { diff } from "./domain/snapshots/diff.ts";
import { phaseGate } from "./domain/gate/phase-gate.service.ts";
import { teamReset } from "./domain/gate/team-reset.service.ts";
import type { DiffInput, ListSnapshotsInput, ReplayInput, SnapshotRefInput, TakeSnapshotInput } from "../lib/api/snapshots.ts";
import type { PhaseGateInput, TeamResetInput } from "../lib/api/gate.ts";
import type {
  CreatePipelineInput,
  DryRunInput,
  MatchingEventsInput,
  PipelineLogInput,
  PipelineRefInput,
  UpdatePipelineInput,
  ValidatePipelineInput,
} from "../lib/api/pipelines.ts";
import type { UpsertMemberInput } from "../lib/api/roster.ts";
import type {
  BatchSpawnInput,
  CleanupInput,
  ContinueInput,
  EndSessionInput,
  DecideApprovalInput,
  DecideApprovalsInput,
  DelegateInput,
  ForkInput,
  ListApprovalsInput,
  ApprovalsFilter,
  ListSessionsInput,
  SendInput,
  SessionRef,
  SpawnInput,
  TeamSpawnInput,
  TranscriptInput,
} from "../lib/api/sessions.ts";
import { batchSpawn, forkSession, spawnSession, teamSpawn } from "./domain/sessions/spawn.service.ts";
import {
  cleanupSessions,
  deleteSession,
  killSession,
  pauseSession,
  resumeSession,
  sendMessage as sendToSession,
  stopSession,
} from "./domain/sessions/control.service.ts";
import { lastOutput, listSessions, sessionHistory, sessionStatus, transcript } from "./domain/sessions/queries.service.ts";
import { countApprovals, decideApproval, decideApprovals, listApprovals } from "./domain/sessions/approvals.ts";
import { retryTurn } from "./domain/sessions/retry.ts";
import { abortTask, continueTask, delegate, finishTask } from "./domain/sessions/delegate.service.ts";
import type { AskInput, BroadcastInput, CheckInboxInput, ReplyInput, SendMessageInput, TeamMessagesInput, UnreadInput } from "../lib/api/chat.ts";
import { broadcast, sendMessage } from "./domain/chat/send.ts";
import { reply } from "./domain/chat/reply.ts";
import { ask } from "./domain/chat/ask.ts";
import { checkInbox, unreadCount } from "./domain/chat/inbox.ts";
import { teamMessages } from "./domain/chat/team-messages.ts";
import type {
  BriefingInput,
  HookInput,
  LatestCheckpointInput,
  ListDecisionsInput,
  ListPatternsInput,
  PatternRefInput,
  RecordCheckpointInput,
  RecordDecisionInput,
  RegisterPatternInput,
} from "../lib/api/continuity.ts";
import { listDecisions, recordDecision } from "./domain/continuity/decisions.service.ts";
import { getPattern, listPatterns, registerPattern } from "./domain/continuity/patterns.service.ts";
import { latestCheckpoint, recordCheckpoint } from "./domain/continuity/checkpoints.service.ts";
import { briefing } from "./domain/continuity/briefing.service.ts";
import { runHook } from "./domain/continuity/hooks.service.ts";
import type {
  AppendWisdomInput,
  ExplorationListInput,
  ExplorationLookupInput,
  ExplorationRecordInput,
  ListWisdomInput,
  StateUpdateInput,
  TeamStateInput,
  WisdomRefInput,
} from "../lib/api/knowledge.ts";
import { postStateUpdate, teamState } from "./domain/knowledge/state.service.ts";
import { appendWisdom, listWisdom, refuseWisdomChange } from "./domain/knowledge/wisdom.service.ts";
import { listExplorations, lookupExploration, recordExploration } from "./domain/knowledge/exploration.service.ts";
import type { ChangesInput, CompareInput, DiscardInput, LeftBranchesInput, MergeInput, OverlapsInput } from "../lib/api/worktrees.ts";
import { overlaps, sessionChanges } from "./domain/worktrees/changes.service.ts";
import { discardSession, mergeSession } from "./domain/worktrees/merge.service.ts";
import { compareBranches } from "./domain/worktrees/compare.service.ts";
import { leftBranches } from "./domain/worktrees/left-branches.ts";
import { worktreesDir } from "./domain/worktrees/isolate.ts";
import type { PortRange } from "./domain/worktrees/ports.ts";
import type { OutputInput, RunInput, RunnableInput } from "../lib/api/runnable.ts";
import { processOutput, requestRun, rerunSetup, runnableState } from "./domain/worktrees/runnable.service.ts";
import type { CreateWebhookInput, DeliveriesInput, UpdateWebhookInput, WebhookRefInput } from "../lib/api/webhooks.ts";
import { createWebhook, deleteWebhook, listDeliveries, listWebhooks, testWebhook, updateWebhook } from "./domain/notifications/webhooks.service.ts";
import { DEFAULT_WEBHOOK_CONFIG, type WebhookConfig } from "./domain/notifications/config.ts";

/**
 * `sandbox`: whether sessions run in the OS sandbox here (docs/security.md#sandbox); without it, full and safety-off are refused.
 * `maxLiveSessions`: the admission limit on sessions holding a `claude` process (0: no limit).
 */
export type HubInfo = {
  version: string;
  startedAt: Date;
  requireToken: boolean;
  dataDir: string;
  sessionWorkDir: string;
  sandbox: "bubblewrap" | "none";
  maxLiveSessions: number;
  /** Ports for work-tree sessions (TEAMHUB_PORT_RANGE; default DEFAULT_PORT_RANGE). */
  portRange?: PortRange;
  /** How webhooks are delivered (TEAMHUB_WEBHOOK_*; default DEFAULT_WEBHOOK_CONFIG). */
  webhooks?: WebhookConfig;
  /** The Claude Code CLI the sessions run and its version, learnt at start (server/claude-version.ts). */
  claudeCode?: ClaudeCodeProbe;
};

/** What only the hub process can check before a session is written (the CLI binary it will run). */
export type SessionRuntime = { preflight(): void };

export function createServices(deps: DomainDeps, info: HubInfo, runtime?: SessionRuntime) {
  const defaults = {
    workDir: info.sessionWorkDir,
    sandbox: info.sandbox,
    maxLive: info.maxLiveSessions,
    worktreesDir: worktreesDir(info.dataDir),
    portRange: info.portRange,
  };
  const preflight = <T>(fn: () => Promise<T>) => {
    runtime?.preflight();
    return fn();
  };
  return {
    info,
    /** For reads done on the hub's own behalf (resource listings, completions). */
    operator: OPERATOR,
    health: async (): Promise<Health> => ({
      ok: true,
      version: info.version,
      startedAt: info.startedAt,
      requireToken: info.requireToken,
      sandbox: info.sandbox,
      maxLiveSessions: info.maxLiveSessions,
      claudeCode: info.claudeCode?.current() ?? infoOf(null),
    }),
    auth: {
      authenticate: (token: string) => authenticate(deps, token),
      createToken: (a: Principal, i: { name: string; kind: "member" | "agent"; label?: string }) => createToken(deps, a, i),
      revoke: (a: Principal, i: { name: string; label?: string }) => revokeTokens(deps, a, i),
      list: (a: Principal) => listTokens(deps, a),
      operatorToken: (a: Principal) => readOperatorToken(deps, a, info.dataDir),
    },
    /** Lead grants (docs/security.md#capabilities): who may do a team's team-wide operations besides the operator. */
    leads: {
      grant: (a: Principal, i: LeadRefInput) => grantLead(deps, a, i),
      revoke: (a: Principal, i: LeadRefInput) => revokeLead(deps, a, i),
      list: (a: Principal, i: { team: string }) => listLeads(deps, a, i),
    },
    /** The hubs sharing the database and their health (docs/hubs.md). */
    hubs: {
      list: (a: Principal) => listHubs(deps, a),
    },
    /** A team's outgoing webhooks and their delivery log (docs/notifications.md). */
    webhooks: {
      create: (a: Principal, i: CreateWebhookInput) => createWebhook(deps, a, i),
      list: (a: Principal, i: { team: string }) => listWebhooks(deps, a, i),
      update: (a: Principal, i: UpdateWebhookInput) => updateWebhook(deps, a, i),
      delete: (a: Principal, i: WebhookRefInput) => deleteWebhook(deps, a, i),
      test: (a: Principal, i: WebhookRefInput) => testWebhook(deps, a, i, info.webhooks ?? DEFAULT_WEBHOOK_CONFIG),
      deliveries: (a: Principal, i: DeliveriesInput) => listDeliveries(deps, a, i),
    },
    /** Team, member and contract budgets (docs/budgets.md). */
    budgets: {
      set: (a: Principal, i: SetBudgetInput) => setBudget(deps, a, i),
      list: (a: Principal, i: ListBudgetsInput) => listBudgets(deps, a, i),
      own: (a: Principal, i: OwnBudgetsInput) => ownBudgets(deps, a, i),
    },
    teams: {
      list: () => listTeams(deps),
      create: (a: Principal, i: { id: string }) => createTeam(deps, a, i),
      archive: (a: Principal, i: { team: string }) => archiveTeam(deps, a, i),
      demo: (a: Principal, i: { team: string }) => runQuickStartDemo(deps, a, i),
      settings: (_: Principal, i: { team: string }) => getTeamSettings(deps, i),
      updateSettings: (a: Principal, i: UpdateTeamSettingsInput) => updateTeamSettings(deps, a, i),
      permissions: (a: Principal, i: { team: string }) => teamPermissions(deps, a, i),
    },
    events: {
      list: (a: Principal, i: ListEventsInput) => listEvents(deps, a, i),
      after: (i: { teams: string[]; after: number; limit: number }) => eventsAfter(deps, i),
      lastId: () => lastEventId(deps),
    },
    overview: (a: Principal, i: { team: string }) => overview(deps, a, i),
    artifacts: {
      publish: (a: Principal, i: PublishArtifactInput) => publishArtifact(deps, a, i),
      get: (a: Principal, i: GetArtifactInput) => getArtifact(deps, a, i),
      list: (_: Principal, i: ListArtifactsInput) => listArtifacts(deps, i),
      history: (_: Principal, i: HistoryInput) => artifactHistory(deps, i),
      readers: (_: Principal, i: ArtifactRefInput) => artifactReaders(deps, i),
      types: (_: Principal, i: { team: string }) => listTypes(deps, i),
      registerType: (a: Principal, i: RegisterTypeInput) => registerType(deps, a, i),
    },
    contracts: {
      create: (a: Principal, i: CreateContract) => createContract(deps, a, i),
      get: (_: Principal, i: ContractRefInput) => getContract(deps, i),
      list: (_: Principal, i: ListContractsInput) => listContracts(deps, i),
      start: (a: Principal, i: ContractRefInput) => startContract(deps, a, i),
      complete: (a: Principal, i: CompleteContractInput) => completeContractCommand(deps, a, i),
      fail: (a: Principal, i: ReasonInput) => failContract(deps, a, i),
      reopen: (a: Principal, i: ReopenContractInput) => reopenContract(deps, a, i),
      reassign: (a: Principal, i: ReassignContractInput) => reassignContract(deps, a, i),
      addDependency: (a: Principal, i: DependencyChangeInput) => addDependency(deps, a, i),
      removeDependency: (a: Principal, i: DependencyChangeInput) => removeDependency(deps, a, i),
    },
    lineage: {
      graph: (_: Principal, i: LineageInput) => lineage(deps, i),
      impact: (_: Principal, i: ImpactInput) => impact(deps, i),
      stale: (_: Principal, i: StaleInput) => staleArtifacts(deps, i),
      audit: (_: Principal, i: AuditInput) => audit(deps, i),
    },
    /** The canvas: contracts and artifacts of a team as one graph. */
    graph: (_: Principal, i: GraphInput) => graphView(deps, i),
    snapshots: {
      take: (a: Principal, i: TakeSnapshotInput) => takeSnapshot(deps, a, i),
      list: (_: Principal, i: ListSnapshotsInput) => listSnapshots(deps, i),
      get: (_: Principal, i: SnapshotRefInput) => getSnapshot(deps, i),
      delete: (a: Principal, i: SnapshotRefInput) => deleteSnapshot(deps, a, i),
      rollback: (a: Principal, i: SnapshotRefInput) => rollback(deps, a, i),
      replay: (a: Principal, i: ReplayInput) => replay(deps, a, i),
      /** What rollback / replay would do: the same command, rolled back at the end. */
      rollbackPreview: (a: Principal, i: SnapshotRefInput) => rollbackPreview(deps, a, i),
      replayPreview: (a: Principal, i: ReplayInput) => replayPreview(deps, a, i),
      diff: (_: Principal, i: DiffInput) => diff(deps, i),
    },
    gate: {
      check: (a: Principal, i: PhaseGateInput) => phaseGate(deps, a, i),
      reset: (a: Principal, i: TeamResetInput) => teamReset(deps, a, i),
    },
    pipelines: {
      create: (a: Principal, i: CreatePipelineInput) => createPipeline(deps, a, i),
      list: (_: Principal, i: { team: string }) => listPipelines(deps, i),
      get: (_: Principal, i: PipelineLogInput) => getPipeline(deps, i),
      update: (a: Principal, i: UpdatePipelineInput) => updatePipeline(deps, a, i),
      pause: (a: Principal, i: PipelineRefInput) => pausePipeline(deps, a, i),
      resume: (a: Principal, i: PipelineRefInput) => resumePipeline(deps, a, i),
      delete: (a: Principal, i: PipelineRefInput) => deletePipeline(deps, a, i),
      dryRun: (a: Principal, i: DryRunInput) => dryRun(deps, a, i),
      matchingEvents: (a: Principal, i: MatchingEventsInput) => matchingEvents(deps, a, i),
      validate: (_: Principal, i: ValidatePipelineInput) => validatePipeline(deps, i),
    },
    roster: {
      list: (_: Principal, i: { team: string }) => listRoster(deps, i),
      upsert: (a: Principal, i: UpsertMemberInput) => upsertMember(deps, a, i),
    },
    chat: {
      send: (a: Principal, i: SendMessageInput) => sendMessage(deps, a, i),
      broadcast: (a: Principal, i: BroadcastInput) => broadcast(deps, a, i),
      reply: (a: Principal, i: ReplyInput) => reply(deps, a, i),
      /** Waits for the reply or the timeout; `signal` ends the wait early when the caller goes away. */
      ask: (a: Principal, i: AskInput, signal?: AbortSignal) => ask(deps, a, i, signal),
      inbox: (a: Principal, i: CheckInboxInput) => checkInbox(deps, a, i),
      unread: (a: Principal, i: UnreadInput) => unreadCount(deps, a, i),
      /** The whole team's conversation, for operators; marks nothing read. */
      messages: (a: Principal, i: TeamMessagesInput) => teamMessages(deps, a, i),
    },
    continuity: {
      recordDecision: (a: Principal, i: RecordDecisionInput) => recordDecision(deps, a, i),
      listDecisions: (_: Principal, i: ListDecisionsInput) => listDecisions(deps, i),
      registerPattern: (a: Principal, i: RegisterPatternInput) => registerPattern(deps, a, i),
      getPattern: (_: Principal, i: PatternRefInput) => getPattern(deps, i),
      listPatterns: (_: Principal, i: ListPatternsInput) => listPatterns(deps, i),
      recordCheckpoint: (a: Principal, i: RecordCheckpointInput) => recordCheckpoint(deps, a, i),
      latestCheckpoint: (a: Principal, i: LatestCheckpointInput) => latestCheckpoint(deps, a, i),
      briefing: (a: Principal, i: BriefingInput) => briefing(deps, a, i),
      hook: (a: Principal, i: HookInput) => runHook(deps, a, i),
    },
    knowledge: {
      stateUpdate: (a: Principal, i: StateUpdateInput) => postStateUpdate(deps, a, i),
      teamState: (_: Principal, i: TeamStateInput) => teamState(deps, i),
      appendWisdom: (a: Principal, i: AppendWisdomInput) => appendWisdom(deps, a, i),
      listWisdom: (_: Principal, i: ListWisdomInput) => listWisdom(deps, i),
      editWisdom: (_: Principal, i: WisdomRefInput) => refuseWisdomChange(deps, { team: i.team, id: i.id, change: "edit" }),
      deleteWisdom: (_: Principal, i: WisdomRefInput) => refuseWisdomChange(deps, { ...i, change: "delete" }),
      lookupExploration: (_: Principal, i: ExplorationLookupInput) => lookupExploration(deps, i),
      recordExploration: (a: Principal, i: ExplorationRecordInput) => recordExploration(deps, a, i),
      listExplorations: (_: Principal, i: ExplorationListInput) => listExplorations(deps, i),
    },
    sessions: {
      spawn: (a: Principal, i: SpawnInput) => preflight(() => spawnSession(deps, a, i, defaults)),
      batch: (a: Principal, i: BatchSpawnInput) => preflight(() => batchSpawn(deps, a, i, defaults)),
      fork: (a: Principal, i: ForkInput) => preflight(() => forkSession(deps, a, i, defaults)),
      teamSpawn: (a: Principal, i: TeamSpawnInput) => preflight(() => teamSpawn(deps, a, i, defaults)),
      delegate: (a: Principal, i: DelegateInput, signal?: AbortSignal) => preflight(() => delegate(deps, a, i, defaults, signal)),
      send: (a: Principal, i: SendInput, signal?: AbortSignal) => sendToSession(deps, a, i, defaults.maxLive, signal),
      continue: (a: Principal, i: ContinueInput, signal?: AbortSignal) => continueTask(deps, a, i, defaults.maxLive, signal),
      finish: (a: Principal, i: SessionRef) => finishTask(deps, a, i),
      abort: (a: Principal, i: SessionRef) => abortTask(deps, a, i),
      pause: (a: Principal, i: SessionRef) => pauseSession(deps, a, i),
      resume: (a: Principal, i: SessionRef) => resumeSession(deps, a, i, defaults.maxLive),
      retry: (a: Principal, i: SessionRef) => retryTurn(deps, a, i, defaults.maxLive),
      stop: (a: Principal, i: EndSessionInput) => stopSession(deps, a, i),
      kill: (a: Principal, i: EndSessionInput) => killSession(deps, a, i),
      delete: (a: Principal, i: SessionRef) => deleteSession(deps, a, i),
      cleanup: (a: Principal, i: CleanupInput) => cleanupSessions(deps, a, i),
      status: (a: Principal, i: SessionRef) => sessionStatus(deps, a, i),
      output: (a: Principal, i: SessionRef) => lastOutput(deps, a, i),
      list: (a: Principal, i: ListSessionsInput) => listSessions(deps, a, i),
      history: (a: Principal, i: SessionRef & { limit: number }) => sessionHistory(deps, a, i),
      transcript: (a: Principal, i: TranscriptInput) => transcript(deps, a, i),
      approvals: (a: Principal, i: ListApprovalsInput) => listApprovals(deps, a, i),
      approvalCount: (_: Principal, i: ApprovalsFilter) => countApprovals(deps, i),
      decide: (a: Principal, i: DecideApprovalInput) => decideApproval(deps, a, i),
      decideMany: (a: Principal, i: DecideApprovalsInput) => decideApprovals(deps, a, i),
    },
    /** Usage limits of the accounts sessions run on (docs/limits.md). */
    limits: {
      list: (_a: Principal, i: TeamRefInput) => deps.db.read((sql) => accountHolds(sql, i.team)),
      release: (a: Principal, i: ReleaseAccountInput) => releaseAccount(deps, a, i, info.maxLiveSessions),
    },
    /** Sessions' git work trees (docs/worktrees.md). */
    worktrees: {
      changes: (a: Principal, i: ChangesInput) => sessionChanges(deps, a, i),
      merge: (a: Principal, i: MergeInput) => mergeSession(deps, a, i),
      discard: (a: Principal, i: DiscardInput) => discardSession(deps, a, i),
      /** Runnable work trees (docs/worktrees.md#runnable-work-trees). */
      runnable: (a: Principal, i: RunnableInput) => runnableState(deps, a, i),
      commandOutput: (a: Principal, i: OutputInput) => processOutput(deps, a, i),
      setup: (a: Principal, i: RunnableInput) => rerunSetup(deps, a, i, info.maxLiveSessions),
      run: (a: Principal, i: RunInput) => requestRun(deps, a, i),
      overlaps: (_: Principal, i: OverlapsInput) => overlaps(deps, i),
      compare: (a: Principal, i: CompareInput) => compareBranches(deps, a, i),
      leftBranches: (_: Principal, i: LeftBranchesInput) => leftBranches(deps, i),
    },
  };
}

export type Services = ReturnType<typeof createServices>;
