import { getTranslations } from "next-intl/server";
import Link from "next/link";
import type { ReactNode } from "react";
import { homeOf, type Role } from "@/platform/auth/roles";
import { getPlainText } from "@/platform/i18n/server";
import type { Actor } from "@/platform/auth/session";
import { roleSuffixKey } from "@/platform/names/display-name";
import { endsWithHonorific, shownName } from "@/platform/names/person-name";
import { Logo } from "@/platform/ui/logo";
import { PersonName } from "@/platform/ui/person-name";
import { RichText } from "@/platform/ui/rich-text";
import { Drawer } from "./drawer";
import { LanguageSwitcher } from "./language-switcher";
import { SignOutButton } from "./sign-out-button";

/**
 * docs/requirements.md §2 menus: teacher home, students, activities, library, own sign-ins; manager home, schools,
 * library, roster, the academy's sign-in log; students none.
 */
const MENUS: Record<
  Role,
  {
    href: string;
    key: "home" | "students" | "activities" | "schools" | "library" | "roster" | "signins" | "signinLog";
  }[]
> = {
  student: [],
  teacher: [
    { href: "/dashboard/teacher/home", key: "home" },
    { href: "/dashboard/teacher/students", key: "students" },
    { href: "/dashboard/teacher/activities", key: "activities" },
    { href: "/dashboard/teacher/library", key: "library" },
    { href: "/dashboard/teacher/signins", key: "signins" },
  ],
  manager: [
    { href: "/dashboard/manager/home", key: "home" },
    { href: "/dashboard/manager/schools", key: "schools" },
    { href: "/dashboard/manager/library", key: "library" },
    { href: "/dashboard/manager/roster", key: "roster" },
    { href: "/dashboard/manager/signin-log", key: "signinLog" },
  ],
};

/** The name shown in the top bar: nickname, else name, else 'guest', with the role suffix (docs/requirements.md §2). */
export async function DisplayName({ actor }: { actor: Pick<Actor, "nickname" | "name" | "nameKana" | "role"> }) {
  const common = await getTranslations("Common");
  const roles = await getTranslations("Roles");
  const name = shownName(actor);
  // an honorific is added once: a name already ending in one (山田先生) gets no 先生
  const suffix =
    roleSuffixKey(actor.role) === "teacherSuffix" && name && endsWithHonorific(name.base)
      ? null
      : roleSuffixKey(actor.role);
  return (
    <>
      {name ? <PersonName name={name} /> : <RichText text={common("guest")} />}
      {suffix ? <RichText text={roles(suffix)} /> : null}
    </>
  );
}

/** The group line of the drawer: school (students, teachers) or academy (managers), with fallbacks. */
async function GroupName({ actor }: { actor: Actor }) {
  const common = await getTranslations("Common");
  const group = actor.role === "manager" ? actor.academy : actor.school;
  if (group) return <PersonName name={{ base: group.name, reading: group.nameKana }} />;
  return <RichText text={common(actor.role === "manager" ? "academyUnknown" : "schoolUnknown")} />;
}

/**
 * Each role's layout (docs/requirements.md "Layouts"): top bar with the logo linking home, a
 * menu button (teacher and manager; students open the drawer from their name),
 * the display name, the language switcher, and a slide-in drawer.
 */
export async function AppShell({ actor, children }: { actor: Actor; children: ReactNode }) {
  const nav = await getTranslations("Nav");
  const plain = await getPlainText();
  const menu = MENUS[actor.role];
  const drawerBody = (
    <div className="drawer-body">
      <div className="drawer-user">
        <strong data-testid="drawer-name">
          <DisplayName actor={actor} />
        </strong>
        <span className="muted" data-testid="drawer-group">
          <GroupName actor={actor} />
        </span>
      </div>
      {menu.length > 0 ? (
        <nav aria-label={plain(nav("menuLabel"))}>
          <ul className="drawer-menu">
            {menu.map((item) => (
              <li key={item.href}>
                <Link href={item.href} className="drawer-link">
                  <RichText text={nav(item.key)} />
                </Link>
              </li>
            ))}
          </ul>
        </nav>
      ) : null}
      <SignOutButton className="button drawer-signout" />
    </div>
  );
  const hasMenuButton = actor.role !== "student";
  return (
    <div className="app-shell" data-role={actor.role}>
      <header className="top-bar">
        {hasMenuButton ? (
          <Drawer
            trigger={<span aria-hidden="true">☰</span>}
            triggerLabel={nav("openMenu")}
            triggerClassName="icon-button"
          >
            {drawerBody}
          </Drawer>
        ) : null}
        <Link href={homeOf(actor.role)} className="top-bar-home" aria-label={plain(nav("homeLink"))}>
          <Logo size="small" />
        </Link>
        <span className="top-bar-spacer" />
        {hasMenuButton ? (
          <span className="top-bar-name top-bar-name-text" data-testid="display-name">
            <DisplayName actor={actor} />
          </span>
        ) : (
          <Drawer
            trigger={
              <span className="top-bar-name-text" data-testid="display-name">
                <DisplayName actor={actor} />
              </span>
            }
            triggerClassName="button button-ghost top-bar-name"
          >
            {drawerBody}
          </Drawer>
        )}
        <LanguageSwitcher />
      </header>
      <main className="page" id="main">
        {children}
      </main>
    </div>
  );
}
