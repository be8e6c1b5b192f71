import { getTranslations } from "next-intl/server";
import { getPlainText } from "@/platform/i18n/server";
import { Spinner } from "@/platform/ui/spinner";

/** While the library loads (a slow school network): a spinner with its words. */
export async function LibraryLoading() {
  const [t, plain] = await Promise.all([getTranslations("Library"), getPlainText()]);
  return <Spinner label={plain(t("loading"))} />;
}
