import { RosterPage } from "@/features/rostering/ui/roster-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("roster");

export default function ManagerRosterPage() {
  return <RosterPage />;
}
