"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { type ReactNode, useEffect, useState } from "react";

/** Shown only when a navigation takes longer than this (no flash on a fast network). */
const SHOW_AFTER_MS = 150;

function isOwnNavigation(event: MouseEvent): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
    return false;
  const link = (event.target as Element | null)?.closest?.("a[href]");
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute("download") || (link.target && link.target !== "_self"))
    return false;
  const to = new URL(link.href, location.href);
  // a file (an export under /api/) downloads and the address stays: no page is on its way
  return (
    to.origin === location.origin &&
    !to.pathname.startsWith("/api/") &&
    to.pathname + to.search !== location.pathname + location.search
  );
}

/**
 * The loading state a person sees while the next page is on its way
 * (docs/adr/0042-real-404s.md): pages resolve their access and existence checks before the
 * first byte, so no route-level loading.tsx streams a shell (which would turn every
 * not-found into a 200); instead a link click or a GET form inside the dashboard shows
 * `children` (a spinner and "loading") until the URL has changed.
 */
export function NavigationPending({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const search = useSearchParams().toString();
  const [pending, setPending] = useState(false);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setPending(true), SHOW_AFTER_MS);
    };
    const onClick = (event: MouseEvent) => {
      if (isOwnNavigation(event)) start();
    };
    const onSubmit = (event: SubmitEvent) => {
      const form = event.target;
      if (!event.defaultPrevented && form instanceof HTMLFormElement && form.method.toLowerCase() === "get") start();
    };
    document.addEventListener("click", onClick);
    document.addEventListener("submit", onSubmit);
    return () => {
      clearTimeout(timer);
      setPending(false);
      document.removeEventListener("click", onClick);
      document.removeEventListener("submit", onSubmit);
    };
  }, [pathname, search]);

  if (!pending) return null;
  return (
    <div className="navigation-pending" role="status" data-testid="navigation-pending">
      {children}
    </div>
  );
}
