import { SessionDetailPage } from "@/components/sessions/SessionDetailPage.tsx";

export default async function SessionPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<{ tab?: string; at?: string }>;
}) {
  const { name } = await params;
  const { tab, at } = await searchParams;
  return <SessionDetailPage name={decodeURIComponent(name)} tab={tab === "changes" ? "changes" : "transcript"} at={at} />;
}
