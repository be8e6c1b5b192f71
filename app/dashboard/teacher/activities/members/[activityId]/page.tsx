import { MembersPage } from "@/features/lti/ui/members-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("portalMembers");

export default async function TeacherPortalMembers({ params }: { params: Promise<{ activityId: string }> }) {
  return <MembersPage activityId={(await params).activityId} />;
}
