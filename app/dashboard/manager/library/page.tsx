import { LibraryScreen } from "@/components/library/library-screen";
import { screenTitle } from "@/lib/i18n/metadata";

export const generateMetadata = screenTitle("library");

export default function ManagerLibraryPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  return <LibraryScreen role="manager" searchParams={searchParams} />;
}
