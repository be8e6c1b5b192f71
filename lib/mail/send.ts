import "server-only";
import nodemailer, { type Transporter } from "nodemailer";
import { env } from "@/lib/env";
import { metrics } from "@/lib/ops/metrics";

let transport: Transporter | undefined;

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * Sends a plain-text mail over SMTP_URL. Without SMTP_URL (a developer
 * machine) the mail is printed to the server log instead; in production that
 * is an error the caller reports.
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
  const { SMTP_URL, MAIL_FROM, NODE_ENV } = env();
  if (!SMTP_URL) {
    if (NODE_ENV === "production") throw new Error("SMTP_URL is not set: cannot send mail");
    console.info(`[mail to ${mail.to}] ${mail.subject}\n${mail.text}`);
    return;
  }
  transport ??= nodemailer.createTransport(SMTP_URL);
  await transport.sendMail({ from: MAIL_FROM, ...mail });
}
