import { RolloverPage } from "@/features/rostering/ui/rollover-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("rollover");

export default async function ManagerRolloverPage({ params }: { params: Promise<{ schoolId: string }> }) {
  const { schoolId } = await params;
  return <RolloverPage schoolId={schoolId} />;
}
