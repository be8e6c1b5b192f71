"use client";
import { useTranslations } from "next-intl";
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from "react";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { usePlainText } from "@/platform/ui/use-plain-text";

/** docs/requirements.md §2/§9: the drawer closes after a 300 ms exit animation. */
export const DRAWER_EXIT_MS = 300;

type Phase = "closed" | "open" | "closing";

/**
 * Slide-in side menu: opened by its trigger, closed by the close button,
 * Escape, or a click outside; focus stays inside while open and returns to
 * the trigger after.
 */
export function Drawer({
  trigger,
  triggerLabel,
  triggerClassName,
  children,
}: {
  trigger: ReactNode;
  /** Accessible name of the trigger (markup allowed); omit when the trigger's content names it. */
  triggerLabel?: string;
  triggerClassName: string;
  children: ReactNode;
}) {
  const plain = usePlainText();
  const [phase, setPhase] = useState<Phase>("closed");
  const button = useRef<HTMLButtonElement>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const titleId = useId();

  const close = useCallback(() => {
    setPhase((p) => (p === "open" ? "closing" : p));
  }, []);

  useEffect(() => {
    if (phase !== "closing") return;
    timer.current = setTimeout(() => {
      setPhase("closed");
      button.current?.focus();
    }, DRAWER_EXIT_MS);
    return () => {
      if (timer.current) clearTimeout(timer.current);
    };
  }, [phase]);
  const panel = useFocusTrap(phase, close);

  return (
    <>
      <button
        ref={button}
        type="button"
        className={triggerClassName}
        aria-label={triggerLabel ? plain(triggerLabel) : undefined}
        aria-expanded={phase === "open"}
        aria-haspopup="dialog"
        data-testid="drawer-trigger"
        onClick={() => setPhase("open")}
      >
        {trigger}
      </button>
      {phase !== "closed" ? (
        <div className="drawer-root" data-phase={phase}>
          <div className="drawer-backdrop" data-testid="drawer-backdrop" onClick={close} aria-hidden="true" />
          <div
            ref={panel}
            className="drawer"
            role="dialog"
            aria-modal="true"
            aria-labelledby={titleId}
            data-testid="drawer"
            data-phase={phase}
            onClick={(e) => {
              if ((e.target as HTMLElement).closest("a[href]")) close();
            }}
          >
            <DrawerHead titleId={titleId} onClose={close} />
            {children}
          </div>
        </div>
      ) : null}
    </>
  );
}

/**
 * While the drawer is open: its first link or button has the focus, Tab and Shift+Tab stay inside,
 * Escape closes it. Returns the ref of the panel.
 */
function useFocusTrap(phase: Phase, close: () => void) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (phase !== "open") return;
    const focusables = () =>
      Array.from(panel.current?.querySelectorAll<HTMLElement>("a[href], button:not([disabled]), [tabindex='0']") ?? []);
    focusables()[0]?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") {
        e.preventDefault();
        close();
      } else if (e.key === "Tab") {
        const items = focusables();
        const first = items[0];
        const last = items[items.length - 1];
        if (!first || !last) return;
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [phase, close]);
  return panel;
}

/** The drawer's hidden title and its close button. */
function DrawerHead({ titleId, onClose }: { titleId: string; onClose: () => void }) {
  const t = useTranslations("Nav");
  const plain = usePlainText();
  return (
    <div className="drawer-head">
      <span id={titleId} className="visually-hidden">
        <RichTextClient text={t("menu")} />
      </span>
      <button
        type="button"
        className="icon-button"
        aria-label={plain(t("closeMenu"))}
        onClick={onClose}
        data-testid="drawer-close"
      >
        ×
      </button>
    </div>
  );
}
