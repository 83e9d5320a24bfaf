import { useMemo } from "react";
import { usePipelineValidation } from "@/lib/queries/pipelines.ts";
import { useDebounced } from "@/lib/use-debounced.ts";
import type { Draft } from "./PipelineEditor.tsx";
import { toSend } from "./rule-draft.ts";

/**
 * The hub's answer to a draft as it is typed (debounced): its issues, and whether the answer for this very draft
 * is still to come. `withId` asks about the id too (a new pipeline's); an edit keeps its id.
 */
export function useDraftCheck(team: string, draft: Draft, withId: boolean) {
  const sent = useMemo(() => ({ id: !withId || draft.id === "" ? undefined : draft.id, rules: draft.rules.map(toSend) }), [draft, withId]);
  const settled = useDebounced(sent, 350);
  const validation = usePipelineValidation(team, settled);
  // A refetch of the same draft (every live event invalidates team queries) is not "checking".
  const checking = settled !== sent || validation.isPlaceholderData || validation.isLoading;
  return { sent, issues: validation.data?.issues ?? [], checking, error: validation.error };
}
