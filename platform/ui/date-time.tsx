import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { RichText } from "./rich-text";

/** A moment in the display language (school time), or `fallback` (e.g. 'never') when there is none. */
export async function DateTime({ at, fallback }: { at: Date | null; fallback: string }) {
  return <RichText text={at ? formatDateTime(at, await getDisplayLanguage()) : fallback} />;
}
