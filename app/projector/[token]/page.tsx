import { ProjectorPage } from "@/components/projector/projector-page";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("projector");

export default async function Projector({ params }: { params: Promise<{ token: string }> }) {
  return <ProjectorPage token={(await params).token} />;
}
