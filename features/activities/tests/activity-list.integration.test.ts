import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { listActivitiesForSchool } from "@/features/activities/server/queries";
import { activityListFilterSchema } from "@/features/activities/shared/schema";
import { db } from "@/platform/db";
import type { AuthorizedSchoolId } from "@/platform/auth/scope";
import { readTemplateFiles, syncTemplates } from "@/features/activities/server/template-load";
import {
  createAcademy,
  createActivityFromTemplate,
  createResponse,
  createSchool,
  createUser,
  uniqueTag,
} from "../../../prisma/seed/factories";

let school: AuthorizedSchoolId;
const ids: Record<string, string> = {};
beforeAll(async () => {
  await syncTemplates(db(), await readTemplateFiles());
  const tag = uniqueTag();
  const academy = await createAcademy(db(), { name: `AL${tag}`, nameKana: "えーえる" });
  school = (await createSchool(db(), { academyId: academy.id, name: `AL${tag}`, nameKana: "えーえる" }))
    .id as AuthorizedSchoolId;
  const make = async (
    key: string,
    title: string,
    mode: "standby" | "guide" | "self" | "complete",
    status: "active" | "archived" = "active",
  ) =>
    (ids[key] = (
      await createActivityFromTemplate(db(), { templateId: "science-dissolve", schoolId: school, title, mode, status })
    ).id);
  await make("ruby", "|水溶液(すいようえき)の性質", "self");
  await make("percent", "100%の理解", "guide");
  await make("plain", "ふりかえり", "standby");
  await make("old", "むかしの水溶液", "complete", "archived");
  await make("mono", "|観察（かん・さつ）カード", "self");
  const scenes = await db().activityScene.findMany({ where: { activityId: ids.ruby }, orderBy: { position: "asc" } });
  for (const n of [1, 2]) {
    const student = await createUser(db(), {
      role: "student",
      email: `al${n}-${tag}@t.example`,
      schoolId: school,
      student: { grade: 1, className: "1", number: n },
    });
    for (const scene of scenes.slice(0, 2))
      await createResponse(db(), {
        activityId: ids.ruby!,
        sceneId: scene.id,
        userId: student.id,
        answer: { seen: true },
        scenePosition: scene.position,
      });
  }
  // someone who is not (or no longer) the school's: the stats leave them out, so does the list
  const elsewhere = await createSchool(db(), { academyId: academy.id, name: `AX${tag}`, nameKana: "えーえっくす" });
  const moved = await createUser(db(), {
    role: "student",
    email: `al-moved-${tag}@t.example`,
    schoolId: elsewhere.id,
    student: { grade: 1, className: "1", number: 1 },
  });
  await createResponse(db(), {
    activityId: ids.ruby!,
    sceneId: scenes[0]!.id,
    userId: moved.id,
    answer: { seen: true },
    scenePosition: scenes[0]!.position,
  });
});
afterAll(async () => {
  await db().$disconnect();
});

it("lists each activity with its scenes, answers so far, respondents and last use", async () => {
  const rows = await listActivitiesForSchool(school, "active");
  expect(rows.map((r) => r.id).sort()).toEqual([ids.ruby, ids.percent, ids.plain, ids.mono].sort());
  const ruby = rows.find((r) => r.id === ids.ruby)!;
  const scenes = await db().activityScene.count({ where: { activityId: ids.ruby } });
  expect(ruby).toMatchObject({ sceneCount: scenes, answers: 4, respondents: 2 });
  expect(ruby.lastUsedAt).toBeInstanceOf(Date);
  expect(rows.find((r) => r.id === ids.plain)).toMatchObject({ answers: 0, respondents: 0, lastUsedAt: null });
});

it("searches the title as written, by its base text and by its reading; % is literal; filters by mode and tab", async () => {
  const find = async (query: Record<string, string>) => {
    const f = activityListFilterSchema.parse(query);
    return (
      await listActivitiesForSchool(school, f.tab === "archived" ? "archived" : "active", { search: f.q, mode: f.mode })
    )
      .map((r) => r.id)
      .sort();
  };
  expect(await find({ q: "水溶液" })).toEqual([ids.ruby]);
  expect(await find({ q: "すいようえき" })).toEqual([ids.ruby]);
  expect(await find({ q: "%" })).toEqual([ids.percent]);
  expect(await find({ q: "_" })).toEqual([]);
  expect(await find({ q: "\u0000" })).toEqual([]);
  expect(await find({ mode: "standby" })).toEqual([ids.plain]);
  expect(await find({ mode: "nonsense" })).toEqual([ids.ruby, ids.percent, ids.plain, ids.mono].sort());
  // full-width parentheses and the per-character (mono-ruby) form: found by the base and by the whole reading
  expect(await find({ q: "観察" })).toEqual([ids.mono]);
  expect(await find({ q: "かんさつ" })).toEqual([ids.mono]);
  expect(await find({ q: "水溶液", tab: "archived" })).toEqual([ids.old]);
  expect(await find({ q: "水溶液", mode: "guide" })).toEqual([]);
});

it("one statement for the whole list, whatever the number of activities (no query per row)", async () => {
  const client = db();
  const raw = vi.spyOn(client, "$queryRaw");
  const rows = await listActivitiesForSchool(school, "active");
  expect(rows.length).toBeGreaterThanOrEqual(3);
  expect(raw).toHaveBeenCalledTimes(1);
  raw.mockRestore();
});
