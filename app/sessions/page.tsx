import { SessionsPage } from "@/components/sessions/SessionsPage.tsx";

export default function SessionsRoute() {
  return <SessionsPage />;
}
