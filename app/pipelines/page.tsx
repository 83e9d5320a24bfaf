import { PipelinesPage } from "@/components/pipelines/PipelinesPage.tsx";

export default function Page() {
  return <PipelinesPage />;
}
