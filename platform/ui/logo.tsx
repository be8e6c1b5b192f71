import { getTranslations } from "next-intl/server";

const SIZES = { small: 24, medium: 32, large: 48 } as const;

/** The Manabiya mark and name. Sizes: small, medium, large (docs/requirements.md §9). */
export async function Logo({ size = "medium" }: { size?: keyof typeof SIZES }) {
  const t = await getTranslations("Common");
  const px = SIZES[size];
  return (
    <span className={`logo logo-${size}`}>
      <svg width={px} height={px} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" fill="var(--color-accent-green)" />
        <path d="M7 22V11l9 6 9-6v11" fill="none" stroke="#fff" strokeWidth="3" strokeLinejoin="round" />
      </svg>
      <span className="logo-text">{t("appName")}</span>
    </span>
  );
}
