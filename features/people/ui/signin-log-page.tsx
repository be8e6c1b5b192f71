import { getTranslations } from "next-intl/server";
import { requireRole } from "@/platform/auth/session";
import { DeviceSessions } from "@/platform/auth/ui/device-sessions";
import { SecondFactors } from "@/platform/auth/ui/second-factors";
import { getPlainText } from "@/platform/i18n/server";
import { NoPermission } from "@/platform/ui/layout/no-permission";
import { Pager } from "@/platform/ui/pager";
import { RichText } from "@/platform/ui/rich-text";
import { Spinner } from "@/platform/ui/spinner";
import { listSigninLog, type SigninLogScope } from "@/features/people/server/signin-log-queries";
import {
  parseSigninLogQuery,
  SIGNIN_METHODS,
  SIGNIN_RESULTS,
  type SigninLogQuery,
  signinLogSearch,
} from "@/features/people/shared/signin-log";
import { SigninLogExport } from "./signin-log-export";
import { SigninLogTable } from "./signin-log-table";

type Params = Promise<Record<string, string | string[] | undefined>>;

export const MANAGER_SIGNIN_LOG_PATH = "/dashboard/manager/signin-log";
export const TEACHER_SIGNINS_PATH = "/dashboard/teacher/signins";

/** /dashboard/manager/signin-log: the manager's academy's log (its schools' people and changes), filtered, paged; below it the manager's own signed-in devices. */
export async function ManagerSigninLogPage({ searchParams }: { searchParams: Params }) {
  const actor = await requireRole("manager");
  if (!actor.academyId) return <NoPermission />;
  const q = parseSigninLogQuery(await searchParams);
  return (
    <div className="stack">
      <SigninLog scope={{ academyId: actor.academyId }} q={q} path={MANAGER_SIGNIN_LOG_PATH} manager />
      <DeviceSessions userId={actor.id} />
      <SecondFactors userId={actor.id} />
    </div>
  );
}

/** /dashboard/teacher/signins: the teacher's own sign-ins, failures and sign-outs, paged (the page's h1), then their signed-in devices and second factors. */
export async function TeacherSigninsPage({ searchParams }: { searchParams: Params }) {
  const actor = await requireRole("teacher");
  const { page } = parseSigninLogQuery(await searchParams);
  return (
    <div className="stack">
      <SigninLog scope={{ ownUserId: actor.id }} q={{ page }} path={TEACHER_SIGNINS_PATH} manager={false} />
      <DeviceSessions userId={actor.id} />
      <SecondFactors userId={actor.id} />
    </div>
  );
}

async function SigninLog({
  scope,
  q,
  path,
  manager,
}: {
  scope: SigninLogScope;
  q: SigninLogQuery;
  path: string;
  manager: boolean;
}) {
  const [t, { rows, total, pages }] = await Promise.all([getTranslations("SigninLog"), listSigninLog(scope, q)]);
  const filtered = Boolean(q.q || q.method || q.result || q.from || q.to);
  return (
    <div className="stack signin-log-page">
      <div className="row page-head">
        <h1>
          <RichText text={t(manager ? "title" : "ownTitle")} />
        </h1>
        <span className="muted" data-testid="signin-log-total">
          <RichText text={t("total", { count: total })} />
        </span>
        <span className="top-bar-spacer" />
        {manager ? <SigninLogExport search={signinLogSearch({ ...q, page: 1 })} /> : null}
      </div>
      <p className="muted">
        <RichText text={t(manager ? "lead" : "ownLead")} />
      </p>
      {manager ? <SigninLogFilters q={q} path={path} /> : null}
      {rows.length === 0 ? (
        <p className="empty" data-testid="signin-log-empty">
          <RichText text={t(filtered ? "noMatch" : "empty")} />
        </p>
      ) : (
        <SigninLogTable rows={rows} showPerson={manager} />
      )}
      <Pager page={q.page} pages={pages} hrefOf={(page) => `${path}${signinLogSearch({ ...q, page })}`} />
    </div>
  );
}

/** Person or e-mail text, method, result and a date range (school time); a GET form, so the URL holds the filter. */
async function SigninLogFilters({ q, path }: { q: SigninLogQuery; path: string }) {
  const [t, plain] = await Promise.all([getTranslations("SigninLog"), getPlainText()]);
  return (
    <form className="row toolbar signin-log-filters" method="get" action={path} role="search">
      <label className="field">
        <span className="field-label">
          <RichText text={t("search")} />
        </span>
        <input name="q" type="search" defaultValue={q.q ?? ""} maxLength={254} data-testid="signin-log-search" />
      </label>
      <label className="field">
        <span className="field-label">
          <RichText text={t("method")} />
        </span>
        <select name="method" defaultValue={q.method ?? ""} data-testid="signin-log-method">
          <option value="">{plain(t("allMethods"))}</option>
          {SIGNIN_METHODS.map((m) => (
            <option key={m} value={m}>
              {plain(t(`methods.${m}`))}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">
          <RichText text={t("result")} />
        </span>
        <select name="result" defaultValue={q.result ?? ""} data-testid="signin-log-result">
          <option value="">{plain(t("allResults"))}</option>
          {SIGNIN_RESULTS.map((r) => (
            <option key={r} value={r}>
              {plain(t(`results.${r}`))}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">
          <RichText text={t("from")} />
        </span>
        <input name="from" type="date" defaultValue={q.from ?? ""} data-testid="signin-log-from" />
      </label>
      <label className="field">
        <span className="field-label">
          <RichText text={t("to")} />
        </span>
        <input name="to" type="date" defaultValue={q.to ?? ""} data-testid="signin-log-to" />
      </label>
      <button type="submit" className="button" data-testid="signin-log-filter">
        <RichText text={t("filter")} />
      </button>
    </form>
  );
}

/** While the log loads: a spinner with its words. */
export async function SigninLogLoading() {
  const [t, plain] = await Promise.all([getTranslations("SigninLog"), getPlainText()]);
  return <Spinner label={plain(t("loading"))} />;
}
