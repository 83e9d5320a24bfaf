import { z } from "zod";
import { endpoint } from "../endpoint.ts";
import { BudgetView, ListBudgetsInput, OwnBudgetsInput, SetBudgetInput } from "../budgets.ts";

export const budgets = {
  /** The team's budgets with what each has spent in its window (`?team=&scope=`). */
  list: endpoint({ method: "GET", path: "/budgets", input: ListBudgetsInput, output: z.array(BudgetView) }),
  /** Sets (creates or changes) one budget; a change lets turns waiting as `blocked: budget` start. */
  set: endpoint({ method: "PUT", path: "/budgets", input: SetBudgetInput, output: BudgetView }),
  /** The budgets that apply to the caller: its team's, its own, its contracts'. */
  own: endpoint({ method: "GET", path: "/budgets/mine", input: OwnBudgetsInput, output: z.array(BudgetView) }),
};
