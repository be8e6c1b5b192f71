import { getTranslations } from "next-intl/server";
import { RichText } from "./rich-text";
import { Spinner } from "./spinner";

/** docs/requirements.md §2 guard loading pages: a spinner with 'checking authentication' or 'loading user info'. */
export async function GuardLoading({ what }: { what: "checkingAuth" | "loadingUser" }) {
  const t = await getTranslations("Guard");
  return (
    <div className="guard-loading" role="status" data-testid="guard-loading">
      <Spinner size="large" />
      <RichText text={t(what)} />
    </div>
  );
}
