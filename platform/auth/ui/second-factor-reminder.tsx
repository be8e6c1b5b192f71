import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { RichText } from "@/platform/ui/rich-text";
import type { Role } from "../roles";
import { policyStanding } from "../second-factor";
import { readFactorState } from "../second-factor-queries";

/** Where a teacher or manager sets up their second factor (beside their signed-in devices). */
const SETTINGS: Partial<Record<Role, string>> = {
  teacher: "/dashboard/teacher/signins",
  manager: "/dashboard/manager/signin-log",
};

/**
 * Above every staff page during the academy's grace period: a teacher or manager without a second factor is asked to
 * set one up by its end (after it, their next sign-in makes them). Nothing for anyone else.
 */
export async function SecondFactorReminder({ userId, role }: { userId: string; role: Role }) {
  const href = SETTINGS[role];
  if (!href) return null;
  const state = await readFactorState(userId);
  if (!state?.graceUntil || policyStanding(state) !== "grace") return null;
  const [t, lang] = await Promise.all([getTranslations("SecondFactor"), getDisplayLanguage()]);
  return (
    <p className="alert alert-warning" data-testid="second-factor-reminder">
      <span>
        <RichText text={t("graceBanner", { date: formatDateTime(state.graceUntil, lang) })} />{" "}
        <Link href={`${href}#second-factors-title`}>
          <RichText text={t("start")} />
        </Link>
      </span>
    </p>
  );
}
