import { TeacherSigninsPage } from "@/features/people/ui/signin-log-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("signins");

export default function TeacherSigninsRoute({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <TeacherSigninsPage searchParams={searchParams} />;
}
