import { ArtifactDetail } from "@/components/artifacts/ArtifactDetail.tsx";

export default async function Page({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: Promise<{ version?: string }> }) {
  const { id } = await params;
  const { version } = await searchParams;
  const n = Number(version);
  return <ArtifactDetail key={id} id={id} version={Number.isInteger(n) && n > 0 ? n : undefined} />;
}
