import { getTranslations } from "next-intl/server";
import type { Role } from "@/lib/auth/roles";
import { requireRole } from "@/lib/auth/session";
import { baseDisplayName } from "@/lib/users/display-name";
import { RichText } from "@/components/ui/rich-text";

const TITLE_KEY = { student: "studentTitle", teacher: "teacherTitle", manager: "managerTitle" } as const;

/** Minimal role home (Foundation): greets the signed-in user. Later issues fill it. */
export async function HomePage({ role }: { role: Role }) {
  const actor = await requireRole(role);
  const t = await getTranslations("Home");
  const common = await getTranslations("Common");
  const name = baseDisplayName(actor) ?? common("guest");
  return (
    <div className="stack">
      <h1>
        <RichText text={t(TITLE_KEY[role])} />
      </h1>
      <p data-testid="welcome">
        <RichText text={t("welcome", { name })} />
      </p>
    </div>
  );
}
