import { SnapshotsPage } from "@/components/snapshots/SnapshotsPage.tsx";

export default function Page() {
  return <SnapshotsPage />;
}
