import { HomePage } from "@/screens/home/home-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("home");

export default function StudentHomePage() {
  return <HomePage role="student" />;
}
