import { CanvasPage } from "@/components/graph/CanvasPage.tsx";

export default function Canvas() {
  return <CanvasPage />;
}
