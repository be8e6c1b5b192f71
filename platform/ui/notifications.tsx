"use client";
import { useTranslations } from "next-intl";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useRef, useState } from "react";
import { RichTextClient } from "./rich-text-client";
import { usePlainText } from "./use-plain-text";

/** docs/requirements.md §4/§9: notifications close themselves after 5000 ms; 0 or less keeps them until closed. */
export const DEFAULT_NOTIFICATION_MS = 5000;

export type NotificationKind = "success" | "info" | "error";
export interface NotificationInput {
  /** A catalogue message (rich-text markup allowed). */
  message: string;
  kind?: NotificationKind;
  durationMs?: number;
}
interface Notification extends Required<NotificationInput> {
  id: number;
}

const NotifyContext = createContext<(n: NotificationInput) => void>(() => undefined);

export function useNotify() {
  return useContext(NotifyContext);
}

function Toast({ item, onClose }: { item: Notification; onClose: (id: number) => void }) {
  const t = useTranslations("Common");
  const plain = usePlainText();
  useEffect(() => {
    if (item.durationMs <= 0) return;
    const timer = setTimeout(() => onClose(item.id), item.durationMs);
    return () => clearTimeout(timer);
  }, [item, onClose]);
  return (
    <div
      className={`toast toast-${item.kind}`}
      role={item.kind === "error" ? "alert" : "status"}
      data-testid="notification"
      data-kind={item.kind}
    >
      <span>
        <RichTextClient text={item.message} />
      </span>
      <button type="button" className="icon-button" aria-label={plain(t("close"))} onClick={() => onClose(item.id)}>
        ×
      </button>
    </div>
  );
}

/** Holds the page's notifications; announced to screen readers (status, or alert for errors). */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Notification[]>([]);
  const nextId = useRef(1);
  const notify = useCallback((n: NotificationInput) => {
    const id = nextId.current++;
    setItems((list) => [
      ...list,
      { id, message: n.message, kind: n.kind ?? "info", durationMs: n.durationMs ?? DEFAULT_NOTIFICATION_MS },
    ]);
  }, []);
  const close = useCallback((id: number) => setItems((list) => list.filter((i) => i.id !== id)), []);
  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <div className="toasts">
        {items.map((item) => (
          <Toast key={item.id} item={item} onClose={close} />
        ))}
      </div>
    </NotifyContext.Provider>
  );
}

/** Shows one notification when the page loads (e.g. after a redirect). */
export function NotifyOnLoad(props: NotificationInput) {
  const notify = useNotify();
  const shown = useRef(false);
  useEffect(() => {
    if (shown.current) return;
    shown.current = true;
    notify(props);
  }, [notify, props]);
  return null;
}
