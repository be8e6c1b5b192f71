import { RolloverPage } from "@/components/schools/rollover-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("rollover");

export default async function ManagerRolloverPage({ params }: { params: Promise<{ schoolId: string }> }) {
  const { schoolId } = await params;
  return <RolloverPage schoolId={schoolId} />;
}
