import { ProjectorPage } from "@/features/play/ui/projector-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("projector");

export default async function Projector({ params }: { params: Promise<{ token: string }> }) {
  return <ProjectorPage token={(await params).token} />;
}
