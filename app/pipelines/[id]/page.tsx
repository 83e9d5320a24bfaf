import { PipelineDetail } from "@/components/pipelines/PipelineDetail.tsx";

export default async function Page({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <PipelineDetail id={decodeURIComponent(id)} />;
}
