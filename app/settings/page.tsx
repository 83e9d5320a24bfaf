import { SettingsPage } from "@/components/settings/SettingsPage.tsx";

export default function Page() {
  return <SettingsPage />;
}
