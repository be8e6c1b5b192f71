import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/platform/env";
import { metrics } from "@/platform/ops/metrics";
import { log } from "@/platform/ops/log";
import { DEMO_MAILBOX_PATH, keepDemoMail } from "./demo-mailbox";
import type { Mail } from "./mail";

let transport: Transporter | undefined;

/**
 * Sends a plain-text mail over SMTP_URL. In demo mode (MANABIYA_DEMO, set by
 * scripts/start.ts with the demo school) a mail to a demo account is also kept
 * for the demo mailbox page, and without SMTP_URL that is all. Outside demo
 * mode, production without SMTP_URL is an error the caller reports; a
 * developer machine only logs that the mail was not sent. The log names
 * neither the address nor the text (it holds a one-time link).
 */
export async function sendMail(mail: Mail): Promise<void> {
  try {
    await deliver(mail);
  } catch (error) {
    metrics().mailFailures.inc(); // manabiya_mail_send_failures_total
    throw error;
  }
}

async function deliver(mail: Mail): Promise<void> {
  const { SMTP_URL, MAIL_FROM, NODE_ENV, MANABIYA_DEMO } = env();
  if (MANABIYA_DEMO) {
    const kept = keepDemoMail(mail);
    log().info(
      { event: "mail.demo", mailbox: kept ? DEMO_MAILBOX_PATH : undefined, smtp: Boolean(SMTP_URL) },
      kept ? `demo mail: see ${DEMO_MAILBOX_PATH}` : "demo mail to an address outside the demo accounts: not shown",
    );
  }
  if (!SMTP_URL) {
    if (MANABIYA_DEMO) return;
    if (NODE_ENV === "production") throw new Error("SMTP_URL is not set: cannot send mail");
    log().info({ event: "mail.unsent" }, "no SMTP_URL: mail not sent");
    return;
  }
  transport ??= nodemailer.createTransport(SMTP_URL);
  await transport.sendMail({ from: MAIL_FROM, ...mail });
}
