import { KnowledgePage } from "@/components/knowledge/KnowledgePage.tsx";

export default function Page() {
  return <KnowledgePage />;
}
