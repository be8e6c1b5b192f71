"use client";
import { type ReactNode, useEffect, useId, useRef, useState } from "react";

const GAP = 4;
const MARGIN = 8;

/** Where the menu goes: below its button, right edges aligned, above it when there is no room below, always on screen. */
function place(button: DOMRect, width: number, height: number) {
  const left = Math.max(MARGIN, Math.min(button.right - width, window.innerWidth - width - MARGIN));
  const below = button.bottom + GAP;
  const above = button.top - GAP - height;
  const top = below + height <= window.innerHeight - MARGIN || above < MARGIN ? below : above;
  return { left, top: Math.max(MARGIN, Math.min(top, window.innerHeight - height - MARGIN)) };
}

/**
 * A button and its small menu, shown in the browser's top layer (the popover
 * attribute) so that no scroll box clips it: a table row's menu stays whole on
 * a phone. Choosing an entry, an outside click or Escape closes it (the
 * latter two are the browser's light dismiss).
 */
export function PopoverMenu({ label, testId, children }: { label: ReactNode; testId: string; children: ReactNode }) {
  const id = useId();
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLDivElement>(null);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    const m = menu.current;
    if (!m) return;
    const onToggle = (e: Event) => setOpen((e as ToggleEvent).newState === "open");
    m.addEventListener("toggle", onToggle);
    return () => m.removeEventListener("toggle", onToggle);
  }, []);

  useEffect(() => {
    const m = menu.current;
    if (!open || !m) return;
    const reposition = () => {
      const b = button.current;
      if (!b) return;
      const { left, top } = place(b.getBoundingClientRect(), m.offsetWidth, m.offsetHeight);
      m.style.left = `${left}px`;
      m.style.top = `${top}px`;
      m.dataset.placed = "true";
    };
    reposition();
    m.querySelector<HTMLElement>("button:not([disabled]), a[href]")?.focus();
    // the page or the table scrolls: the menu follows its button
    window.addEventListener("scroll", reposition, true);
    window.addEventListener("resize", reposition);
    return () => {
      delete m.dataset.placed;
      window.removeEventListener("scroll", reposition, true);
      window.removeEventListener("resize", reposition);
    };
  }, [open]);

  return (
    <>
      <button
        ref={button}
        type="button"
        className="button button-small"
        popoverTarget={id}
        aria-expanded={open}
        data-testid={testId}
      >
        {label}
      </button>
      <div
        ref={menu}
        id={id}
        popover="auto"
        className="menu popover-menu"
        role="group"
        onClick={(e) => {
          if ((e.target as HTMLElement).closest("button, a[href]")) e.currentTarget.hidePopover();
        }}
      >
        {children}
      </div>
    </>
  );
}
