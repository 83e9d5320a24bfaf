import { endpoint, Unchecked } from "../endpoint.ts";
import { ListBudgetsInput, OwnBudgetsInput, SetBudgetInput } from "../budgets.ts";

export const budgets = {
  list: endpoint({ method: "GET", path: "/budgets", input: ListBudgetsInput, output: Unchecked }),
  set: endpoint({ method: "PUT", path: "/budgets", input: SetBudgetInput, output: Unchecked }),
  own: endpoint({ method: "GET", path: "/budgets/mine", input: OwnBudgetsInput, output: Unchecked }),
};
