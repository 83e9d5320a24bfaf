import { SessionDetailPage } from "@/components/sessions/SessionDetailPage.tsx";

export default async function SessionPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <SessionDetailPage name={decodeURIComponent(name)} />;
}
