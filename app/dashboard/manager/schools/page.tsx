import { SchoolsPage } from "@/features/people/ui/schools-page";
import { LtiPlatformCard } from "@/features/lti/ui/lti-platform-card";
import { LrsCard } from "@/features/lti/ui/lrs-card";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("schools");

export default function ManagerSchoolsPage() {
  return (
    <SchoolsPage
      extra={
        <>
          <LtiPlatformCard />
          <LrsCard />
        </>
      }
    />
  );
}
