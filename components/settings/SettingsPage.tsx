"use client";

import { useTeam } from "../shell/TeamProvider.tsx";
import { Card } from "../ui/Card.tsx";
import { BrowserToken } from "./BrowserToken.tsx";
import { HubsHealth } from "./HubsHealth.tsx";
import { ClaudeSetup } from "./ClaudeSetup.tsx";
import { MemberTokens } from "./MemberTokens.tsx";
import { OperatorToken } from "./OperatorToken.tsx";
import { SoundToggle } from "./SoundToggle.tsx";
import { TeamOptions } from "./TeamOptions.tsx";
import { Webhooks } from "./Webhooks.tsx";
import { WorktreeOptions } from "./WorktreeOptions.tsx";

export function SettingsPage() {
  const { team } = useTeam();
  return (
    <>
      <h1 className="page-title">Settings</h1>
      <div className="grid">
        <Card title="Operator token" testId="operator-token-card">
          <OperatorToken />
        </Card>
        <Card title="Token of this browser" testId="browser-token">
          <BrowserToken />
        </Card>
        <Card title={`Options of team ${team}`} testId="team-options" wide>
          <TeamOptions key={team} team={team} />
        </Card>
        <Card title={`Work tree commands of team ${team}`} testId="worktree-options" wide id="worktree">
          <WorktreeOptions key={team} team={team} />
        </Card>
        <Card title={`Webhooks of team ${team}`} testId="webhooks-card" wide id="webhooks">
          <Webhooks key={team} team={team} />
        </Card>
        <Card title="Member tokens" testId="member-tokens" wide>
          <MemberTokens />
        </Card>
        <Card title="Claude Code" testId="claude-setup" wide id="claude-code">
          <ClaudeSetup />
        </Card>
        <Card title="Hubs" testId="hubs-health" wide>
          <HubsHealth />
        </Card>
        <Card title="Alerts" testId="alerts-settings">
          <SoundToggle />
        </Card>
      </div>
    </>
  );
}
