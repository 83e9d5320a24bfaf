import { z } from "zod";
import { endpoint } from "../endpoint.ts";
import { BudgetView, ListBudgetsInput, OwnBudgetsInput, SetBudgetInput } from "../budgets.ts";

export const budgets = {
  list: endpoint({ method: "GET", path: "/budgets", input: ListBudgetsInput, output: z.array(BudgetView) }),
  set: endpoint({ method: "PUT", path: "/budgets", input: SetBudgetInput, output: BudgetView }),
  own: endpoint({ method: "GET", path: "/budgets/mine", input: OwnBudgetsInput, output: z.array(BudgetView) }),
};
