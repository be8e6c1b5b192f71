"use client";
import { useLocale, useTranslations } from "next-intl";
import { useRouter } from "next/navigation";
import { useEffect, useId, useRef, useState, useTransition } from "react";
import { saveOwnLanguageAction } from "@/platform/i18n/actions";
import {
  DISPLAY_LANGUAGES,
  type DisplayLanguage,
  isDisplayLanguage,
  LANGUAGE_CHOICE_COOKIE,
  LANGUAGE_CHOICE_MAX_AGE,
  LANGUAGE_COOKIE,
  LANGUAGE_COOKIE_MAX_AGE,
  LANGUAGE_STORAGE_KEY,
  languageCookieString,
  languageOfLocaleTag,
} from "@/platform/i18n/languages";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** Inside another page's frame (the portal's iframe of an LTI launch). */
export function inFrame(): boolean {
  return window.self !== window.top;
}

function writeChoice(lang: DisplayLanguage) {
  document.cookie = languageCookieString(lang, LANGUAGE_COOKIE_MAX_AGE, inFrame());
  mirrorChoice(lang);
}

/** A choice on a signed-out page: it was made on this device before sign-in (platform/i18n/signin.ts). */
function markChosenSignedOut() {
  document.cookie = `${LANGUAGE_CHOICE_COOKIE}=1; path=/; max-age=${LANGUAGE_CHOICE_MAX_AGE}; samesite=lax`;
}

function mirrorChoice(lang: DisplayLanguage) {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    // storage may be unavailable (private mode); the cookie is enough
  }
}

function hasCookie() {
  return document.cookie.split("; ").some((c) => c.startsWith(`${LANGUAGE_COOKIE}=`));
}

/**
 * Display-language menu (docs/requirements.md §2): shows the current choice, closes on an
 * outside click or Escape, arrow keys move between options. Switching
 * re-renders from the server in place (form input is kept) and, signed in, is
 * saved on the person's record, so it follows them to their next sign-in
 * (`signedOut`, on the signed-in-less pages, the choice is marked as made before
 * sign-in: the next sign-in keeps it for a person without a language of their own).
 */
export function LanguageSwitcher({ signedOut = false }: { signedOut?: boolean }) {
  const current = languageOfLocaleTag(useLocale());
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [pending, startTransition] = useTransition();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const menuId = useId();

  // The cookie may have been set by the server (at sign-in: the person's language): localStorage follows it.
  // Restore a choice kept in localStorage only when the cookie is gone (e.g. cleared).
  useEffect(() => {
    if (hasCookie()) {
      mirrorChoice(current);
      return;
    }
    let stored: string | null = null;
    try {
      stored = localStorage.getItem(LANGUAGE_STORAGE_KEY);
    } catch {
      stored = null;
    }
    if (!hasCookie() && isDisplayLanguage(stored) && stored !== current) {
      writeChoice(stored);
      startTransition(() => router.refresh());
    }
  }, [current, router]);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (root.current && !root.current.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        setOpen(false);
        button.current?.focus();
      }
    };
    document.addEventListener("pointerdown", onPointer);
    document.addEventListener("keydown", onKey);
    root.current?.querySelector<HTMLElement>('[aria-checked="true"]')?.focus();
    return () => {
      document.removeEventListener("pointerdown", onPointer);
      document.removeEventListener("keydown", onKey);
    };
  }, [open]);

  const choose = (lang: DisplayLanguage) => {
    setOpen(false);
    button.current?.focus();
    if (lang === current) return;
    writeChoice(lang);
    if (signedOut) markChosenSignedOut();
    startTransition(async () => {
      if (!signedOut) await saveOwnLanguageAction({ language: lang }).catch(() => null);
      router.refresh();
    });
  };

  return (
    <div className="lang-switcher" ref={root}>
      <button
        ref={button}
        type="button"
        className="button button-ghost"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        aria-busy={pending}
        data-testid="language-switcher"
        onClick={() => setOpen((v) => !v)}
      >
        <CurrentLanguage current={current} />
      </button>
      {open ? <LanguageMenu menuId={menuId} current={current} onChoose={choose} /> : null}
    </div>
  );
}

/** The switcher's face: an icon and the current language's name. */
function CurrentLanguage({ current }: { current: DisplayLanguage }) {
  const t = useTranslations("Language");
  return (
    <>
      <span className="lang-icon" aria-hidden="true">
        あ
      </span>
      <span className="visually-hidden">
        <RichTextClient text={t("label")} />:{" "}
      </span>
      {/* on a phone only the icon shows; the name stays for screen readers */}
      <span className="lang-current">
        <RichTextClient text={t(current)} />
      </span>
    </>
  );
}

/** The menu of display languages (the current one checked). */
function LanguageMenu({
  menuId,
  current,
  onChoose,
}: {
  menuId: string;
  current: DisplayLanguage;
  onChoose: (lang: DisplayLanguage) => void;
}) {
  const t = useTranslations("Language");
  const plain = usePlainText();
  return (
    <div id={menuId} role="menu" aria-label={plain(t("label"))} className="menu" onKeyDown={moveInMenu}>
      {DISPLAY_LANGUAGES.map((lang) => (
        <button
          key={lang}
          type="button"
          role="menuitemradio"
          aria-checked={lang === current}
          className="menu-item"
          data-lang={lang}
          onClick={() => onChoose(lang)}
        >
          <RichTextClient text={t(lang)} />
        </button>
      ))}
    </div>
  );
}

/** ArrowDown and ArrowUp move between the menu's options (round the ends). */
function moveInMenu(e: React.KeyboardEvent<HTMLDivElement>) {
  const items = Array.from(e.currentTarget.querySelectorAll<HTMLElement>('[role="menuitemradio"]'));
  const index = items.indexOf(document.activeElement as HTMLElement);
  const next = e.key === "ArrowDown" ? index + 1 : e.key === "ArrowUp" ? index - 1 : null;
  if (next === null) return;
  e.preventDefault();
  items[(next + items.length) % items.length]?.focus();
}
