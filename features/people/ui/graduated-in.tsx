import { getTranslations } from "next-intl/server";
import { RichText } from "@/platform/ui/rich-text";

/** 「2026年度卒業」 after a graduate's last seat (nothing for a student at school). */
export async function GraduatedIn({ year }: { year: number | null }) {
  if (year === null) return null;
  const t = await getTranslations("Students");
  return (
    <span className="muted" data-testid="graduated-in">
      {" "}
      <RichText text={t("graduatedIn", { year })} />
    </span>
  );
}
