import type { Role } from "@/platform/auth/roles";
import { DEMO_IDS } from "../../prisma/seed/demo";
import { stableId } from "../../prisma/seed/factories";

const STUDENT = stableId("user:student-1-1");

/**
 * Every page route of the app, with the area it belongs to. The access suite opens each
 * in a browser of its own area's role; the matrix (matrix.spec.ts) asks for each as every
 * role and signed out; access.spec checks that no page exists without a row here.
 */
export interface RouteRow {
  /** The app/ page pattern, e.g. /dashboard/teacher/home. */
  pattern: string;
  /** A concrete path to visit. */
  path: string;
  area: Role | "public";
  /**
   * The access matrix's positive control: an allowed request of an area page
   * must show the data of the school whose ids it named (its canary), unless
   * the page shows no school data (false); `marker` is content the page must
   * carry whenever it is allowed.
   */
  showsSchool?: false;
  marker?: string;
}

export const ROUTES: RouteRow[] = [
  { pattern: "/", path: "/", area: "public", marker: 'data-testid="forgot-link"' },
  { pattern: "/signin", path: "/signin", area: "public", marker: 'data-testid="forgot-link"' },
  {
    pattern: "/auth/auth-with-code",
    path: "/auth/auth-with-code",
    area: "public",
    marker: 'data-testid="code-invalid"',
  },
  { pattern: "/auth/forgot", path: "/auth/forgot", area: "public", marker: 'name="email"' },
  // a refused LTI launch (features/lti): the reason's translated text, whoever asks
  {
    pattern: "/lti/refused",
    path: "/lti/refused?reason=unknownPerson",
    area: "public",
    marker: 'data-code="unknownPerson"',
  },
  // inside the portal's iframe instead of the sign-in form (features/lti): a link to it in a new window, whoever asks
  {
    pattern: "/lti/open",
    path: "/lti/open",
    area: "public",
    marker: 'data-testid="lti-open-window"',
  },
  // the deep linking picker (features/lti) without a request waiting for the visitor: it says so, whoever asks
  {
    pattern: "/lti/deep-link",
    path: "/lti/deep-link",
    area: "public",
    marker: 'data-testid="deep-link-none"',
  },
  { pattern: "/auth/reset", path: "/auth/reset", area: "public", marker: 'data-code="expiredActionCode"' },
  // without a sign-in waiting for its code (tests/e2e/mfa.spec.ts): nothing to confirm
  {
    pattern: "/auth/second-factor",
    path: "/auth/second-factor",
    area: "public",
    marker: 'data-testid="second-factor-none"',
  },
  { pattern: "/demo/mailbox", path: "/demo/mailbox", area: "public", marker: 'id="mailbox-title"' },
  { pattern: "/dashboard", path: "/dashboard", area: "public" },
  // a token that opens nothing: the page says the lesson is over (a running one: tests/e2e/projector.spec.ts)
  {
    pattern: "/projector/[token]",
    path: `/projector/${"Z".repeat(43)}`,
    area: "public",
    marker: 'data-testid="projector-ended"',
  },
  { pattern: "/dashboard/student/home", path: "/dashboard/student/home", area: "student" },
  { pattern: "/dashboard/teacher/home", path: "/dashboard/teacher/home", area: "teacher" },
  { pattern: "/dashboard/teacher/markup", path: "/dashboard/teacher/markup", area: "teacher" },
  { pattern: "/dashboard/teacher/activities", path: "/dashboard/teacher/activities", area: "teacher" },
  { pattern: "/dashboard/teacher/students", path: "/dashboard/teacher/students", area: "teacher" },
  { pattern: "/dashboard/teacher/readings", path: "/dashboard/teacher/readings", area: "teacher" },
  { pattern: "/dashboard/teacher/library", path: "/dashboard/teacher/library", area: "teacher", showsSchool: false },
  { pattern: "/dashboard/manager/library", path: "/dashboard/manager/library", area: "manager", showsSchool: false },
  { pattern: "/dashboard/manager/roster", path: "/dashboard/manager/roster", area: "manager", showsSchool: false },
  {
    pattern: "/dashboard/manager/signin-log",
    path: "/dashboard/manager/signin-log",
    area: "manager",
    showsSchool: false,
    marker: 'data-testid="signin-log-total"',
  },
  {
    pattern: "/dashboard/teacher/signins",
    path: "/dashboard/teacher/signins",
    area: "teacher",
    showsSchool: false,
    marker: 'data-testid="signin-log-total"',
  },
  {
    pattern: "/dashboard/teacher/activities/edit/[activityId]",
    path: `/dashboard/teacher/activities/edit/${DEMO_IDS.mathActivity}`,
    area: "teacher",
  },
  {
    pattern: "/dashboard/teacher/activities/preview/[activityId]",
    path: `/dashboard/teacher/activities/preview/${DEMO_IDS.mathActivity}`,
    area: "teacher",
  },
  { pattern: "/dashboard/manager/home", path: "/dashboard/manager/home", area: "manager" },
  { pattern: "/dashboard/manager/schools", path: "/dashboard/manager/schools", area: "manager" },
  {
    pattern: "/dashboard/manager/schools/[schoolId]",
    path: `/dashboard/manager/schools/${DEMO_IDS.school1}`,
    area: "manager",
  },
  {
    pattern: "/dashboard/manager/schools/[schoolId]/rollover",
    path: `/dashboard/manager/schools/${DEMO_IDS.school1}/rollover`,
    area: "manager",
  },
  {
    pattern: "/dashboard/manager/schools/[schoolId]/readings",
    path: `/dashboard/manager/schools/${DEMO_IDS.school1}/readings`,
    area: "manager",
  },
  {
    pattern: "/dashboard/manager/activities/[schoolId]",
    path: `/dashboard/manager/activities/${DEMO_IDS.school1}`,
    area: "manager",
  },
  {
    pattern: "/dashboard/student/activities/solo/[activityId]",
    path: `/dashboard/student/activities/solo/${DEMO_IDS.scienceActivity}`,
    area: "student",
  },
  {
    pattern: "/dashboard/student/activities/session/[activityId]",
    path: `/dashboard/student/activities/session/${DEMO_IDS.mathActivity}`,
    area: "student",
  },
  {
    pattern: "/dashboard/student/activities/response/[activityId]",
    path: `/dashboard/student/activities/response/${DEMO_IDS.reflectionActivity}`,
    area: "student",
  },
  {
    pattern: "/dashboard/teacher/activities/solo/[activityId]",
    path: `/dashboard/teacher/activities/solo/${DEMO_IDS.teacherActivity}`,
    area: "teacher",
  },
  {
    pattern: "/dashboard/teacher/activities/guide/[activityId]",
    path: `/dashboard/teacher/activities/guide/${DEMO_IDS.mathActivity}`,
    area: "teacher",
  },
  {
    pattern: "/dashboard/manager/activities/guide/[schoolId]/[activityId]",
    path: `/dashboard/manager/activities/guide/${DEMO_IDS.school1}/${DEMO_IDS.mathActivity}`,
    area: "manager",
  },
  { pattern: "/dashboard/teacher/portfolio", path: "/dashboard/teacher/portfolio", area: "teacher" },
  {
    pattern: "/dashboard/teacher/portfolio/[studentId]",
    path: `/dashboard/teacher/portfolio/${STUDENT}`,
    area: "teacher",
  },
  {
    pattern: "/dashboard/teacher/activities/stats/[activityId]",
    path: `/dashboard/teacher/activities/stats/${DEMO_IDS.scienceActivity}`,
    area: "teacher",
  },
  {
    pattern: "/dashboard/teacher/activities/members/[activityId]",
    path: `/dashboard/teacher/activities/members/${DEMO_IDS.scienceActivity}`,
    area: "teacher",
  },
  {
    pattern: "/dashboard/teacher/activities/response/[activityId]/[studentId]",
    path: `/dashboard/teacher/activities/response/${DEMO_IDS.scienceActivity}/${STUDENT}`,
    area: "teacher",
  },
  {
    pattern: "/dashboard/manager/activities/stats/[schoolId]/[activityId]",
    path: `/dashboard/manager/activities/stats/${DEMO_IDS.school1}/${DEMO_IDS.scienceActivity}`,
    area: "manager",
  },
  {
    pattern: "/dashboard/manager/activities/response/[schoolId]/[activityId]/[studentId]",
    path: `/dashboard/manager/activities/response/${DEMO_IDS.school1}/${DEMO_IDS.scienceActivity}/${STUDENT}`,
    area: "manager",
  },
  {
    pattern: "/dashboard/manager/activities/edit/[schoolId]/[activityId]",
    path: `/dashboard/manager/activities/edit/${DEMO_IDS.school1}/${DEMO_IDS.mathActivity}`,
    area: "manager",
  },
  {
    pattern: "/dashboard/manager/activities/preview/[schoolId]/[activityId]",
    path: `/dashboard/manager/activities/preview/${DEMO_IDS.school1}/${DEMO_IDS.mathActivity}`,
    area: "manager",
  },
];
