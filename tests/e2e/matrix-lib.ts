/**
 * The access matrix's seed and its strict reading of a reply (tests/e2e/matrix.spec.ts).
 * An outcome is exact: a 5xx, or a page whose render failed after the shell had
 * streamed, is "error" and never counts as "no access".
 */
import { createHash } from "node:crypto";
import sharp from "sharp";
import type { Role } from "@/platform/auth/roles";
import { createActivityFromTemplate, createResponse, createSchool, createUser } from "../../prisma/seed/factories";
import { BASE_URL } from "./config";
import { e2eDb, TEST_PASSWORD } from "./db";

export type Who = Role | "signedOut";
export type Variant = "own" | "sibling" | "foreign" | "mixed";
export interface Ids {
  schoolId: string;
  self: string;
  guide: string;
  /** the guide activity's first scene */
  guideScene: string;
  teacherActivity: string;
  studentId: string;
  /** the solo activity's first (info) scene, which the school's student has answered */
  selfScene: string;
  /** an image of the school (features/scenes/README.md "Images") */
  image: string;
}

/**
 * What each seeded item's name or title carries after the school's canary, so a
 * page's positive control can ask for the very item its ids name (the school's
 * name alone is in every area page's layout).
 */
export const ITEM = {
  school: "-SCH",
  teacher: "-TCH",
  student: "-STU",
  nickname: "-NIC",
  self: "-SELF",
  guide: "-GUIDE",
  teacherActivity: "-TACT",
  answer: "-ANS",
} as const;

/** A school with a teacher, a student, a solo, a guide and a teacher activity, and the student's answers; every name and title carries `canary`. */
export async function seedMatrixSchool(academyId: string, canary: string, staffEmailTag: string, tag: string) {
  const db = e2eDb();
  const mark = (item: keyof typeof ITEM) => ` ${canary}${ITEM[item]}`;
  const school = await createSchool(db, {
    academyId,
    name: `行列中学校${mark("school")}`,
    nameKana: "ぎょうれつちゅうがっこう",
  });
  const teacher = await createUser(db, {
    role: "teacher",
    email: `mt-${staffEmailTag}-${tag}@test.example`,
    password: TEST_PASSWORD,
    schoolId: school.id,
    name: `行列 先生${mark("teacher")}`,
    nameKana: "ぎょうれつ せんせい",
  });
  const student = await createUser(db, {
    role: "student",
    email: `ms-${staffEmailTag}-${tag}@test.example`,
    password: TEST_PASSWORD,
    schoolId: school.id,
    name: `行列 花子${mark("student")}`,
    nameKana: "ぎょうれつ はなこ",
    nickname: `${canary}${ITEM.nickname}`,
    student: { grade: 1, className: "1", number: 1 },
  });
  const self = await createActivityFromTemplate(db, {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "self",
    title: `理科${mark("self")}`,
  });
  const guide = await createActivityFromTemplate(db, {
    templateId: "science-dissolve",
    schoolId: school.id,
    mode: "guide",
    title: `授業${mark("guide")}`,
  });
  const teacherActivity = await createActivityFromTemplate(db, {
    templateId: "teacher-lesson-reflection",
    schoolId: school.id,
    mode: "self",
    title: `振り返り${mark("teacherActivity")}`,
  });
  const scenes = await db.activityScene.findMany({ where: { activityId: self.id }, orderBy: { position: "asc" } });
  const guideScene = await db.activityScene.findFirstOrThrow({
    where: { activityId: guide.id },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  for (const scene of scenes) {
    const answer =
      scene.type === "free_text"
        ? { text: `感想${mark("answer")}` }
        : scene.type === "two_step"
          ? null
          : scene.type === "single_choice"
            ? { choice: "clear" }
            : { seen: true };
    if (answer)
      await createResponse(db, {
        activityId: self.id,
        sceneId: scene.id,
        userId: student.id,
        answer,
        scenePosition: scene.position,
      });
  }
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "red" } })
    .png()
    .toBuffer();
  const sha256 = createHash("sha256").update(png).digest("hex");
  const image = await db.image.create({
    data: { schoolId: school.id, contentType: "image/png", width: 8, height: 8, byteSize: png.byteLength, sha256 },
    select: { id: true },
  });
  await db.imageContent.upsert({ where: { sha256 }, create: { sha256, data: new Uint8Array(png) }, update: {} });
  return {
    ids: {
      schoolId: school.id,
      self: self.id,
      guide: guide.id,
      teacherActivity: teacherActivity.id,
      studentId: student.id,
      selfScene: scenes[0]!.id,
      guideScene: guideScene.id,
      image: image.id,
    },
    teacher,
    student,
  };
}

/** Which of a school's activities a page pattern's [activityId] is: the live one for guide and session pages, the teacher's own for a teacher's solo page, else the self-paced one. */
export const activityOf = (pattern: string) =>
  /\/(guide|session)\//.test(pattern)
    ? "guide"
    : pattern.startsWith("/dashboard/teacher/activities/solo/")
      ? "teacherActivity"
      : "self";
/** A page pattern with its [schoolId], [activityId] and [studentId] filled in. */
export function fillIds(pattern: string, ids: { schoolId: string; activityId: string; studentId: string }) {
  return pattern
    .replace("[schoolId]", ids.schoolId)
    .replace("[activityId]", ids.activityId)
    .replace("[studentId]", ids.studentId);
}

export interface Reply {
  status: number;
  location: string;
  contentType: string;
  body: string;
}

export async function send(
  cookie: string,
  pathname: string,
  init: {
    method?: string;
    body?: string | Uint8Array<ArrayBuffer>;
    stream?: boolean;
    headers?: Record<string, string>;
  } = {},
): Promise<Reply> {
  const controller = new AbortController();
  const res = await fetch(`${BASE_URL}${pathname}`, {
    method: init.method ?? "GET",
    redirect: "manual",
    signal: controller.signal,
    headers: {
      Cookie: cookie,
      ...(init.body ? { "Content-Type": "application/json", Origin: BASE_URL } : {}),
      ...init.headers,
    },
    body: init.body,
  });
  let body = "";
  if (init.stream && res.status === 200 && res.body) {
    // a stream never ends: read until its first state event (generous: the CI box is loaded), then hang up
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const until = Date.now() + 20_000;
    while (Date.now() < until && !body.includes("event: state")) {
      const chunk = await Promise.race([
        reader.read(),
        new Promise<null>((r) => setTimeout(() => r(null), until - Date.now())),
      ]);
      if (!chunk || chunk.done) break;
      body += decoder.decode(chunk.value, { stream: true });
    }
    controller.abort();
  } else if (/^(application\/pdf|image\/)/.test(res.headers.get("content-type") ?? "")) {
    body = Buffer.from(await res.arrayBuffer()).toString("latin1");
  } else {
    body = await res.text();
  }
  return {
    status: res.status,
    location: res.headers.get("location") ?? "",
    contentType: res.headers.get("content-type") ?? "",
    body,
  };
}

/** Where a redirect goes, as a full URL on the app's origin (a redirect to any other origin keeps its own). */
export const target = (reply: Reply) => (reply.location ? new URL(reply.location, BASE_URL).href : "");
export const signinFrom = (pathname: string) => {
  const url = new URL("/signin", BASE_URL);
  url.searchParams.set("from", pathname);
  return url.href;
};
export const homeUrl = (role: Role) => new URL(`/dashboard/${role}/home`, BASE_URL).href;

export type PageOutcome = "allowed" | "redirected" | "no access" | `error ${string}`;

/** The digests React and Next stream for a render that threw after the shell was sent (not-found has its own). */
const NOT_FOUND_DIGEST = "NEXT_HTTP_ERROR_FALLBACK;404";
function streamedDigests(body: string): string[] {
  const found = [
    ...body.matchAll(/data-dgst="([^"]*)"/g),
    ...body.matchAll(/\$RX\("[^"]*","([^"]*)"/g),
    ...body.matchAll(/E\{\\*"digest\\*":\\*"([^"\\]*)/g),
  ];
  return found.map((m) => m[1]!);
}

/**
 * Exactly what a page reply is: a redirect (3xx); "no access" only as Next's
 * not-found with a real 404 status; "allowed" only as a 200 without any error digest.
 * Anything else (5xx, a streamed render error, another status) is an error.
 */
export function outcomeOfPage(reply: Reply): PageOutcome {
  if (reply.status >= 500) return `error ${reply.status}`;
  if (reply.status >= 300 && reply.status < 400) return "redirected";
  const digests = streamedDigests(reply.body);
  const other = digests.find((d) => d !== NOT_FOUND_DIGEST);
  if (other !== undefined) return `error (streamed digest ${other})`;
  if (reply.status === 404) return "no access";
  if (reply.status !== 200) return `error ${reply.status}`;
  // a not-found streamed after the shell went out with 200 (a crawler or a script reads "this exists")
  if (digests.length > 0) return "error (not-found streamed with status 200)";
  return "allowed";
}
