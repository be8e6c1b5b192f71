import { getTranslations } from "next-intl/server";
import Link from "next/link";
import { RichText } from "@/platform/ui/rich-text";
import type { DemoMail } from "@/platform/mail/demo-mailbox";
import { AuthCard } from "./auth-card";

const LINK = /(https?:\/\/[^\s]+)/;

/** A mail's text with its links clickable (split keeps the links at the odd places). */
function MailText({ text }: { text: string }) {
  return (
    <pre className="demo-mail-text">
      {text.split(LINK).map((part, i) =>
        i % 2 === 1 ? (
          <a key={i} href={part} data-testid="demo-mail-link">
            {part}
          </a>
        ) : (
          part
        ),
      )}
    </pre>
  );
}

/** The demo mailbox: the newest mails to the demo accounts first. */
export async function DemoMailboxPage({ mails }: { mails: readonly DemoMail[] }) {
  const t = await getTranslations("DemoMailbox");
  return (
    <AuthCard labelledBy="mailbox-title">
      <h1 id="mailbox-title">
        <RichText text={t("title")} />
      </h1>
      <p className="muted">
        <RichText text={t("lead")} />
      </p>
      {mails.length === 0 ? (
        <p data-testid="demo-mailbox-empty">
          <RichText text={t("empty")} />
        </p>
      ) : (
        <ol className="stack" data-testid="demo-mailbox">
          {mails.map((mail) => (
            <li key={mail.id} className="card" data-testid="demo-mail" data-to={mail.to}>
              <dl>
                <dt>
                  <RichText text={t("to")} />
                </dt>
                <dd>{mail.to}</dd>
                <dt>
                  <RichText text={t("subject")} />
                </dt>
                <dd>{mail.subject}</dd>
                <dt>
                  <RichText text={t("sentAt")} />
                </dt>
                <dd>
                  <time dateTime={mail.sentAt}>{mail.sentAt.slice(0, 19).replace("T", " ")} UTC</time>
                </dd>
              </dl>
              <MailText text={mail.text} />
            </li>
          ))}
        </ol>
      )}
      <Link href="/signin">
        <RichText text={t("backToSignin")} />
      </Link>
    </AuthCard>
  );
}
