"use client";
import { type ReactNode, useState } from "react";
import { useNotify } from "./notifications";

/** The file name a response's Content-Disposition gives (the UTF-8 one first). */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const utf8 = disposition?.match(/filename\*=UTF-8''([^;]+)/i)?.[1];
  if (utf8) {
    try {
      return decodeURIComponent(utf8);
    } catch {
      // a malformed escape: the plain name below
    }
  }
  return disposition?.match(/filename="([^"]+)"/i)?.[1] ?? fallback;
}

/**
 * A download that says why it failed: the file is fetched first and saved only when the
 * server sends it; a refusal (e.g. 413, more than an import accepts) becomes a notification
 * in the page instead of a browser error page. Without JavaScript it is a plain link.
 */
export function DownloadLink({
  href,
  className,
  testId,
  failure,
  children,
}: {
  href: string;
  className?: string;
  testId?: string;
  failure: (status: number) => string;
  children: ReactNode;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  return (
    <a
      className={className}
      href={href}
      download
      data-testid={testId}
      aria-busy={busy}
      onClick={async (e) => {
        e.preventDefault();
        if (busy) return;
        setBusy(true);
        try {
          const res = await fetch(href, { credentials: "same-origin" });
          if (!res.ok) return notify({ message: failure(res.status), kind: "error" });
          const url = URL.createObjectURL(await res.blob());
          const a = document.createElement("a");
          a.href = url;
          a.download = fileNameOf(res.headers.get("content-disposition"), "download");
          document.body.append(a);
          a.click();
          a.remove();
          setTimeout(() => URL.revokeObjectURL(url), 10_000);
        } catch {
          notify({ message: failure(0), kind: "error" });
        } finally {
          setBusy(false);
        }
      }}
    >
      {children}
    </a>
  );
}
