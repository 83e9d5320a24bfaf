"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { NewContractDialog } from "../graph/NewContractDialog.tsx";
import { Card } from "../ui/Card.tsx";
import { GetStarted } from "./GetStarted.tsx";
import { StartMemberDialog } from "./StartMemberDialog.tsx";

/** The overview of an empty team: the guided start, with its own member and contract forms; what it makes is drawn on the canvas. */
export function EmptyTeamCard({ team }: { team: string }) {
  const router = useRouter();
  const [memberOpen, setMemberOpen] = useState(false);
  const [contractFor, setContractFor] = useState<string | null>(null);
  return (
    <Card title="Get started" testId="empty-team" wide>
      <GetStarted team={team} onStartMember={() => setMemberOpen(true)} onNewContract={() => setContractFor("")} onDemo={() => router.push("/canvas")} />
      <StartMemberDialog team={team} open={memberOpen} onClose={() => setMemberOpen(false)} />
      <NewContractDialog
        team={team}
        assignee={contractFor}
        onClose={() => setContractFor(null)}
        onCreated={(id) => router.push(`/canvas?contract=${encodeURIComponent(id)}`)}
      />
    </Card>
  );
}
