import { InboxPage } from "@/components/inbox/InboxPage.tsx";

export default function Page() {
  return <InboxPage />;
}
