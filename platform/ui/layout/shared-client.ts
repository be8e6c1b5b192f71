import Link from "next/link";
import { PersonName } from "@/platform/ui/person-name";
import { LanguageSwitcher } from "./language-switcher";
import { SignOutButton } from "./sign-out-button";
import { TryAgain } from "./try-again";

/**
 * Client components that the sign-in page, the QR sign-in and every signed-in
 * shell all use (and the error boundaries' page, loaded with every page). The root layout imports them so that their code comes once,
 * with the root layout's chunk: Turbopack otherwise puts a copy in each page's
 * or layout's own chunk, and a student's tablet downloads next/link and the
 * language menu again on each page of a first visit
 * (tests/e2e/first-day-bytes.spec.ts, tools/bench/bytes.ts).
 */
export const SHARED_CLIENT_COMPONENTS: readonly unknown[] = [
  Link,
  LanguageSwitcher,
  PersonName,
  SignOutButton,
  TryAgain,
];
