import { RosterPage } from "@/components/roster/roster-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("roster");

export default function ManagerRosterPage() {
  return <RosterPage />;
}
