import { notFound } from "next/navigation";
import { connection } from "next/server";
import { DemoMailboxPage } from "@/platform/auth/ui/demo-mailbox";
import { env } from "@/platform/env";
import { screenTitle } from "@/platform/i18n/metadata";
import { demoMails } from "@/platform/mail/demo-mailbox";

export const generateMetadata = screenTitle("demoMailbox");

/** /demo/mailbox: the demo accounts' mail (platform/mail/demo-mailbox.ts); a plain 404 outside demo mode. */
export default async function Page() {
  await connection(); // read at request time, never at build time
  if (!env().MANABIYA_DEMO) notFound();
  return <DemoMailboxPage mails={demoMails()} />;
}
