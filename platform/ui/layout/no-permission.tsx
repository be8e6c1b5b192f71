import { getTranslations } from "next-intl/server";
import { RichText } from "@/platform/ui/rich-text";

/** A staff page for an account without the school or academy it needs (e.g. a teacher not yet placed in a school). */
export async function NoPermission() {
  const guard = await getTranslations("Guard");
  return (
    <p className="alert alert-error" role="alert" data-testid="no-permission">
      <RichText text={guard("noPermission")} />
    </p>
  );
}
