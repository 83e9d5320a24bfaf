"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { useRouter } from "next/navigation";
import type { BudgetView } from "@/lib/api/budgets.ts";
import { api } from "@/lib/api/endpoints/index.ts";
import { apiCall } from "@/lib/browser-api.ts";
import { useDecideOne } from "@/lib/queries/approvals.ts";
import { keys } from "@/lib/queries/keys.ts";
import { NewContractDialog } from "../graph/NewContractDialog.tsx";
import { RaiseBudget } from "../fixes/RaiseBudget.tsx";
import { StartMemberDialog } from "../start/StartMemberDialog.tsx";
import type { PaletteAction } from "./palette-match.ts";

/** What an action asks before it runs, in the palette's own input: its prompt and first value. */
export const ASKS: Partial<Record<PaletteAction["type"], (now: Date) => { prompt: string; initial: string }>> = {
  "take-snapshot": (now) => ({ prompt: "label of the snapshot", initial: `from the palette, ${now.toISOString().slice(0, 16).replace("T", " ")}` }),
};

/** A budget raised from the palette: the same form as beside a blocked session. */
function RaiseDialog({ team, budget, onClose }: { team: string; budget: BudgetView; onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => dialog.current?.showModal(), []);
  return (
    <dialog ref={dialog} aria-label="raise a budget" data-testid="raise-dialog" onClose={onClose}>
      <h2 className="page-title">Raise a budget</h2>
      <RaiseBudget team={team} budget={budget} />
      <div className="row">
        <button type="button" onClick={() => dialog.current?.close()}>
          Close
        </button>
      </div>
    </dialog>
  );
}

export type Outcome = { ok: boolean; text: string; href?: string };

/**
 * The palette's actions (docs/dashboard.md#the-palette), each the API's own call: allow a request, take a snapshot (with
 * the label asked for), or open the form that does the rest (start a member, a new contract for a member, raise a
 * budget). `run` answers what happened, for the palette to say; `dialogs` is where the forms open.
 */
export function usePaletteActions(team: string): { run: (a: PaletteAction, arg?: string) => Promise<Outcome | null>; dialogs: ReactNode } {
  const router = useRouter();
  const qc = useQueryClient();
  const decide = useDecideOne(team);
  const take = useMutation({
    mutationFn: (label: string) => apiCall(api.snapshots.take, { team, label }),
    onSuccess: () => qc.invalidateQueries({ queryKey: keys.snapshots(team) }),
  });
  const [contractFor, setContractFor] = useState<string | null>(null);
  const [member, setMember] = useState(false);
  const [raising, setRaising] = useState<BudgetView | null>(null);

  const run = async (a: PaletteAction, arg?: string): Promise<Outcome | null> => {
    try {
      switch (a.type) {
        case "allow": {
          const r = await decide.mutateAsync({ session: a.session, approvalId: a.approvalId, decision: "allow" });
          return { ok: true, text: `Allowed ${r.toolName} for ${r.session}.`, href: `/sessions/${encodeURIComponent(r.session)}` };
        }
        case "take-snapshot": {
          const s = await take.mutateAsync(arg ?? "");
          return { ok: true, text: `Took snapshot “${s.label}” (${s.id}).`, href: "/snapshots" };
        }
        case "new-contract":
          setContractFor(a.member);
          return null;
        case "start-member":
          setMember(true);
          return null;
        case "raise-budget": {
          const list = await qc.fetchQuery({ queryKey: keys.budgets(team), queryFn: () => apiCall(api.budgets.list, { team }) });
          const b = list.find((x) => x.scope === a.scope && x.target === a.target && x.unit === a.unit);
          if (b) setRaising(b);
          return b ? null : { ok: false, text: "That budget is gone." };
        }
      }
    } catch (e) {
      return { ok: false, text: (e as Error).message };
    }
  };

  const dialogs = (
    <>
      {/* Mounted while open only: their queries (artifact types, the roster) are not every page's. */}
      {contractFor !== null && (
        <NewContractDialog
          team={team}
          assignee={contractFor}
          onClose={() => setContractFor(null)}
          onCreated={(id) => {
            setContractFor(null);
            router.push(`/canvas?contract=${encodeURIComponent(id)}`);
          }}
        />
      )}
      {member && <StartMemberDialog team={team} open={member} onClose={() => setMember(false)} />}
      {raising && <RaiseDialog team={team} budget={raising} onClose={() => setRaising(null)} />}
    </>
  );
  return { run, dialogs };
}
