import { BudgetsPage } from "@/components/budgets/BudgetsPage.tsx";

export default function Page() {
  return <BudgetsPage />;
}
