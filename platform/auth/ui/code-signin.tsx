"use client";
import { useTranslations } from "next-intl";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { type CodeSigninResult, signInWithCode, signOutAction } from "@/platform/auth/actions";
import { PersonName } from "@/platform/ui/person-name";
import { RichTextClient } from "@/platform/ui/rich-text-client";
import { shownName } from "@/platform/names/person-name";

/** A sign-in problem with the way back to the sign-in page. */
function CodeProblem({ message, testId, code }: { message: string; testId: string; code?: string }) {
  const t = useTranslations("CodeSignin");
  return (
    <div className="stack" data-testid={testId} data-code={code}>
      <p className="alert alert-error" role="alert">
        <span>
          <RichTextClient text={message} />
        </span>
      </p>
      <Link href="/signin" className="button">
        <RichTextClient text={t("toSignin")} />
      </Link>
    </div>
  );
}

/** Signs in with the code, then asks "is this you?" (docs/requirements.md §2). */
export function CodeSignin({ pendingValid }: { pendingValid: boolean }) {
  const t = useTranslations("CodeSignin");
  const te = useTranslations("AuthErrors");
  const router = useRouter();
  const [result, setResult] = useState<CodeSigninResult | null>(null);
  const [leaving, setLeaving] = useState<"yes" | "no" | null>(null);
  // Whether this page arrived with a code: fixed at mount, so the action's
  // re-render of the page (without the now-used code) does not change it.
  const [hadCode] = useState(pendingValid);
  const started = useRef(false);

  useEffect(() => {
    if (started.current || !hadCode) return;
    started.current = true;
    signInWithCode().then(setResult, () => setResult({ ok: false, error: "networkFailed" }));
  }, [hadCode]);

  if (!hadCode) return <CodeProblem message={te("invalidCode")} testId="code-invalid" />;
  if (!result) {
    return (
      <p className="spinner-wrap" role="status" data-testid="code-checking">
        <span className="spinner spinner-medium" aria-hidden="true" />
        <RichTextClient text={t("checking")} />
      </p>
    );
  }
  if (!result.ok) {
    return (
      <CodeProblem
        message={te(result.error, { minutes: result.retryMinutes ?? 15 })}
        testId="code-error"
        code={result.error}
      />
    );
  }
  const name = shownName({ name: result.name, nameKana: result.nameKana });
  return (
    <div
      role="dialog"
      aria-modal="true"
      aria-labelledby="code-confirm-title"
      className="stack"
      data-testid="code-confirm"
    >
      <h1 id="code-confirm-title">
        <RichTextClient text={t("title")} />
      </h1>
      <p className="confirm-name" data-testid="code-name">
        {name ? <PersonName name={name} /> : null}
      </p>
      {result.school ? (
        <p className="muted" data-testid="code-school">
          <PersonName name={{ base: result.school.name, reading: result.school.nameKana }} />
        </p>
      ) : null}
      <div className="row">
        <button
          type="button"
          className="button button-primary"
          autoFocus
          disabled={leaving !== null}
          onClick={() => {
            setLeaving("yes");
            router.replace("/dashboard/student/home");
          }}
        >
          <RichTextClient text={t("yes")} />
        </button>
        <form action={signOutAction} onSubmit={() => setLeaving("no")}>
          <button type="submit" className="button" disabled={leaving !== null} aria-busy={leaving === "no"}>
            <RichTextClient text={leaving === "no" ? t("signingOut") : t("no")} />
          </button>
        </form>
      </div>
    </div>
  );
}
