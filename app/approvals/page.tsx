import { ApprovalsPage } from "@/components/approvals/ApprovalsPage.tsx";

export default function Page() {
  return <ApprovalsPage />;
}
