import { HomeDashboard } from "@/components/home/HomeDashboard.tsx";

export default function HomePage() {
  return <HomeDashboard />;
}
