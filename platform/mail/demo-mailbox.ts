/**
 * The demo's mailbox (`npm start` with the demo school: no SMTP, and the
 * accounts' addresses are in the reserved example.com domain anyway). The
 * last mails to those accounts are kept in memory and shown on /demo/mailbox,
 * which answers 404 outside demo mode. One list per process, shared through
 * globalThis by every bundle of Next.js (like platform/shutdown.ts).
 */
import type { Mail } from "./mail";

export const DEMO_MAILBOX_PATH = "/demo/mailbox";
/** The demo accounts' domain (prisma/seed/demo.ts; a test checks that every demo account is in it). */
export const DEMO_MAIL_DOMAIN = "example.com";
const KEEP = 20;

export interface DemoMail extends Mail {
  id: number;
  sentAt: string;
}

const shared = globalThis as unknown as { manabiyaDemoMailbox?: { next: number; mails: DemoMail[] } };
const box = () => (shared.manabiyaDemoMailbox ??= { next: 1, mails: [] });

/** Whether a mail to `to` may be shown on the public demo page: only the demo accounts' domain. */
export const isDemoAddress = (to: string) => to.toLowerCase().endsWith(`@${DEMO_MAIL_DOMAIN}`);

/** Keeps the mail when it is to a demo account; whether it was kept. */
export function keepDemoMail(mail: Mail): boolean {
  if (!isDemoAddress(mail.to)) return false;
  const b = box();
  b.mails.unshift({ ...mail, id: b.next++, sentAt: new Date().toISOString() });
  b.mails.length = Math.min(b.mails.length, KEEP);
  return true;
}

/** The kept mails, newest first. */
export function demoMails(): readonly DemoMail[] {
  return box().mails;
}
