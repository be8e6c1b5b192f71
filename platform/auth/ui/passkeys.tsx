import { getTranslations } from "next-intl/server";
import { formatDateTime } from "@/platform/i18n/dates";
import { getDisplayLanguage } from "@/platform/i18n/server";
import { RichText } from "@/platform/ui/rich-text";
import { listPasskeys } from "../passkey-queries";
import { AddPasskey, RemovePasskeyButton } from "./passkey-buttons";

/** A teacher's or manager's passkeys (platform/auth/passkey.ts): each by name, when added and last used; add, remove. */
export async function Passkeys({ userId }: { userId: string }) {
  const [t, lang, keys] = await Promise.all([
    getTranslations("SecondFactor"),
    getDisplayLanguage(),
    listPasskeys(userId),
  ]);
  return (
    <section className="stack passkeys" data-testid="passkeys" aria-labelledby="passkeys-title">
      <h3 id="passkeys-title">
        <RichText text={t("passkeysTitle")} />
      </h3>
      <p className="muted">
        <RichText text={t("passkeysLead")} />
      </p>
      {keys.length === 0 ? (
        <p className="empty" data-testid="passkey-none">
          <RichText text={t("passkeyNone")} />
        </p>
      ) : (
        <ul className="stack passkey-list">
          {keys.map((key) => (
            <li key={key.id} className="row passkey" data-testid="passkey" data-name={key.name}>
              <span className="stack passkey-text">
                <strong className="passkey-name">{key.name}</strong>
                <span className="muted small">
                  <RichText text={t("passkeyCreated", { date: formatDateTime(key.createdAt, lang) })} />
                </span>
                <span className="muted small" data-testid="passkey-last-used">
                  {key.lastUsedAt ? (
                    <RichText text={t("passkeyLastUsed", { date: formatDateTime(key.lastUsedAt, lang) })} />
                  ) : (
                    <RichText text={t("passkeyNeverUsed")} />
                  )}
                </span>
              </span>
              <span className="top-bar-spacer" />
              <RemovePasskeyButton id={key.id} />
            </li>
          ))}
        </ul>
      )}
      <AddPasskey />
    </section>
  );
}
