import { ManagerSigninLogPage } from "@/features/people/ui/signin-log-page";
import { screenTitle } from "@/platform/i18n/metadata";

export const generateMetadata = screenTitle("signinLog");

export default function ManagerSigninLogRoute({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <ManagerSigninLogPage searchParams={searchParams} />;
}
