import { ArtifactsPage } from "@/components/artifacts/ArtifactsPage.tsx";

export default function Page() {
  return <ArtifactsPage />;
}
