import type { Prisma, PrismaClient } from "@/platform/db/generated/prisma/client";
import { hashPassword } from "@/platform/auth/password";
import { DEMO_STUDENTS_1, DEMO_STUDENTS_2, DEMO_STUDENTS_3 } from "./demo-people";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createSigninCode,
  createUser,
  stableId,
} from "./factories";

export const DEMO_PASSWORD = "manabiya-demo";

/** The accounts the README lists. */
export const DEMO_ACCOUNTS = {
  manager: "manager@example.com",
  teacher: "teacher@example.com",
  student: "student01@example.com",
  teacher2: "teacher2@example.com",
  manager2: "manager2@example.com",
  teacher3: "teacher3@example.com",
} as const;

/** The demo students' sign-in addresses, per demo school (n from 1). */
const DEMO_STUDENT_EMAIL = {
  school1: (n: number) => `student${String(n).padStart(2, "0")}@example.com`,
  school2: (n: number) => `school2-student${n}@example.com`,
  school3: (n: number) => `other-student${n}@example.com`,
};

/** Every demo account's address (a production start refuses while one still has the demo password). */
export function demoEmails(): string[] {
  const numbers = (list: unknown[]) => list.map((_, i) => i + 1);
  return [
    ...Object.values(DEMO_ACCOUNTS),
    ...numbers(DEMO_STUDENTS_1).map(DEMO_STUDENT_EMAIL.school1),
    ...numbers(DEMO_STUDENTS_2).map(DEMO_STUDENT_EMAIL.school2),
    ...numbers(DEMO_STUDENTS_3).map(DEMO_STUDENT_EMAIL.school3),
  ];
}

export const DEMO_IDS = {
  academy: stableId("academy:demo"),
  academy2: stableId("academy:other"),
  school1: stableId("school:demo-1"),
  school2: stableId("school:demo-2"),
  school3: stableId("school:other-1"),
  scienceActivity: stableId("activity:science"),
  mathActivity: stableId("activity:math"),
  reflectionActivity: stableId("activity:reflection"),
  teacherActivity: stableId("activity:teacher-reflection"),
  archivedActivity: stableId("activity:archived"),
  standbyActivity: stableId("activity:standby"),
} as const;

async function exists(check: Promise<unknown>) {
  return (await check) !== null;
}

/**
 * Seeds the demo school. Deterministic and idempotent: every row has a fixed
 * id and is created only when absent, so a second run changes nothing.
 */
export async function seedDemo(prisma: PrismaClient, options: { signinCodeKey: string; log?: (m: string) => void }) {
  const log = options.log ?? (() => undefined);
  let created = 0;
  let passwordHash: string | undefined;
  const demoHash = async () => (passwordHash ??= await hashPassword(DEMO_PASSWORD));

  const ensureAcademy = async (id: string, name: string, nameKana: string) => {
    if (await exists(prisma.academy.findUnique({ where: { id }, select: { id: true } }))) return;
    await createAcademy(prisma, { id, name, nameKana });
    created += 1;
  };
  const ensureSchool = async (id: string, academyId: string, name: string, nameKana: string) => {
    if (await exists(prisma.school.findUnique({ where: { id }, select: { id: true } }))) return;
    await createSchool(prisma, { id, academyId, name, nameKana });
    created += 1;
  };
  const ensureUser = async (key: string, input: Omit<Parameters<typeof createUser>[1], "id" | "passwordHash">) => {
    const id = stableId(`user:${key}`);
    if (await exists(prisma.user.findUnique({ where: { id }, select: { id: true } }))) return id;
    await createUser(prisma, { ...input, id, passwordHash: await demoHash() });
    if (input.role === "student") await createSigninCode(prisma, id, options.signinCodeKey);
    created += 1;
    return id;
  };

  await ensureAcademy(DEMO_IDS.academy, "デモ学園", "でもがくえん");
  await ensureSchool(DEMO_IDS.school1, DEMO_IDS.academy, "デモ第一中学校", "でもだいいちちゅうがっこう");
  await ensureSchool(DEMO_IDS.school2, DEMO_IDS.academy, "デモ第二中学校", "でもだいにちゅうがっこう");
  await ensureAcademy(DEMO_IDS.academy2, "別の学園", "べつのがくえん");
  await ensureSchool(DEMO_IDS.school3, DEMO_IDS.academy2, "別の小学校", "べつのしょうがっこう");

  await ensureUser("manager", {
    role: "manager",
    email: DEMO_ACCOUNTS.manager,
    academyId: DEMO_IDS.academy,
    name: "山田 恵子",
    nameKana: "やまだ けいこ",
    nickname: null,
  });
  await ensureUser("manager2", {
    role: "manager",
    email: DEMO_ACCOUNTS.manager2,
    academyId: DEMO_IDS.academy2,
    name: "北村 誠",
    nameKana: "きたむら まこと",
    nickname: null,
  });
  await ensureUser("teacher", {
    role: "teacher",
    email: DEMO_ACCOUNTS.teacher,
    schoolId: DEMO_IDS.school1,
    name: "佐藤 健一",
    nameKana: "さとう けんいち",
    nickname: "佐藤",
  });
  await ensureUser("teacher2", {
    role: "teacher",
    email: DEMO_ACCOUNTS.teacher2,
    schoolId: DEMO_IDS.school2,
    name: "高田 由美",
    nameKana: "たかだ ゆみ",
    nickname: "高田",
  });
  await ensureUser("teacher3", {
    role: "teacher",
    email: DEMO_ACCOUNTS.teacher3,
    schoolId: DEMO_IDS.school3,
    name: "大島 隆",
    nameKana: "おおしま たかし",
    nickname: "大島",
  });

  const school1Students: { id: string; group: string; position: number }[] = [];
  for (const [i, [family, familyKana, given, givenKana, nickname]] of DEMO_STUDENTS_1.entries()) {
    const n = i + 1;
    const group = n % 2 === 1 ? "A" : "B";
    const id = await ensureUser(`student-1-${n}`, {
      role: "student",
      email: DEMO_STUDENT_EMAIL.school1(n),
      schoolId: DEMO_IDS.school1,
      name: `${family} ${given}`,
      nameKana: `${familyKana} ${givenKana}`,
      nickname,
      student: { grade: 1, className: "1", number: n, counterbalanceGroup: group },
    });
    school1Students.push({ id, group, position: n });
  }
  for (const [i, [family, familyKana, given, givenKana, nickname]] of DEMO_STUDENTS_2.entries()) {
    const n = i + 1;
    await ensureUser(`student-2-${n}`, {
      role: "student",
      email: DEMO_STUDENT_EMAIL.school2(n),
      schoolId: DEMO_IDS.school2,
      name: `${family} ${given}`,
      nameKana: `${familyKana} ${givenKana}`,
      nickname,
      student: { grade: 1, className: "1", number: n, counterbalanceGroup: n % 2 === 1 ? "A" : "B" },
    });
  }
  for (const [i, [family, familyKana, given, givenKana, nickname]] of DEMO_STUDENTS_3.entries()) {
    const n = i + 1;
    await ensureUser(`student-3-${n}`, {
      role: "student",
      email: DEMO_STUDENT_EMAIL.school3(n),
      schoolId: DEMO_IDS.school3,
      name: `${family} ${given}`,
      nameKana: `${familyKana} ${givenKana}`,
      nickname,
      student: { grade: 5, className: "2", number: n, counterbalanceGroup: null },
    });
  }

  created += await seedDemoActivities(prisma, school1Students);
  log(created === 0 ? "demo data already present: nothing changed" : `demo data: ${created} records created`);
  return { created };
}

async function seedDemoActivities(prisma: PrismaClient, students: { id: string; group: string }[]) {
  const ensureActivity = async (
    id: string,
    input: Omit<Parameters<typeof createActivityFromTemplate>[1], "id" | "schoolId">,
  ) => {
    if (await exists(prisma.activity.findUnique({ where: { id }, select: { id: true } }))) return false;
    await createActivityFromTemplate(prisma, { ...input, id, schoolId: DEMO_IDS.school1 });
    return true;
  };
  let created = 0;
  if (await ensureActivity(DEMO_IDS.scienceActivity, { templateId: "science-dissolve", mode: "self" })) {
    created += 1;
    const scenes = await scenesOf(prisma, DEMO_IDS.scienceActivity);
    // Group B sees the two prediction questions in the other order (counterbalancing).
    const [intro, weight, solution, candle, learned] = scenes;
    if (intro && weight && solution && candle && learned) {
      await prisma.activitySceneOrder.create({
        data: {
          activityId: DEMO_IDS.scienceActivity,
          group: "B",
          sceneIds: [intro.id, candle.id, solution.id, weight.id, learned.id],
        },
      });
      const answers: [string, string, string][] = [
        ["same", "sure", "とけても食塩はなくならないから。"],
        ["less", "maybe", "とけて見えなくなるから軽くなると思う。"],
        ["same", "maybe", "水と食塩をあわせた重さになるはず。"],
        ["more", "unsure", "まぜると重くなる気がする。"],
        ["same", "sure", "前にお湯で砂糖をとかしたときも同じだった。"],
        ["less", "unsure", "よくわからないけれど少し減ると思う。"],
      ];
      for (const [i, [first, second, reason]] of answers.entries()) {
        const student = students[i];
        if (!student) continue;
        const position = student.group === "B" ? 3 : 1;
        await createResponse(prisma, {
          activityId: DEMO_IDS.scienceActivity,
          sceneId: weight.id,
          userId: student.id,
          answer: { first, second, reason },
          scenePosition: position,
          counterbalanceGroup: student.group,
        });
      }
    }
  }
  if (await ensureActivity(DEMO_IDS.mathActivity, { templateId: "math-linear-equations", mode: "guide" })) created += 1;
  if (await ensureActivity(DEMO_IDS.reflectionActivity, { templateId: "reflection-weekly", mode: "complete" })) {
    created += 1;
    const scenes = await scenesOf(prisma, DEMO_IDS.reflectionActivity);
    const texts = ["計算ドリルを毎日やった。", "発表を２回した。", "漢字テストで満点だった。"];
    for (const [i, student] of students.slice(0, 10).entries()) {
      const answers: Prisma.InputJsonValue[] = [
        { value: (i % 5) + 1 },
        { value: ((i + 2) % 5) + 1 },
        { text: texts[i % texts.length]! },
        { text: "もっと質問したい。" },
      ];
      for (const [position, scene] of scenes.entries()) {
        await createResponse(prisma, {
          activityId: DEMO_IDS.reflectionActivity,
          sceneId: scene.id,
          userId: student.id,
          answer: answers[position]!,
          scenePosition: position,
          counterbalanceGroup: student.group,
        });
      }
    }
  }
  if (
    await ensureActivity(DEMO_IDS.standbyActivity, {
      templateId: "science-dissolve",
      title: "ものの|溶(と)け|方(かた)（２|組(くみ)）",
      mode: "standby",
    })
  )
    created += 1;
  if (await ensureActivity(DEMO_IDS.teacherActivity, { templateId: "teacher-lesson-reflection", mode: "self" }))
    created += 1;
  if (
    await ensureActivity(DEMO_IDS.archivedActivity, {
      templateId: "reflection-weekly",
      title: "１学期のふりかえり",
      mode: "complete",
      status: "archived",
    })
  )
    created += 1;
  return created;
}

function scenesOf(prisma: PrismaClient, activityId: string) {
  return prisma.activityScene.findMany({ where: { activityId }, orderBy: { position: "asc" }, select: { id: true } });
}
