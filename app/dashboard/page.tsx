import { redirect } from "next/navigation";

/** docs/requirements.md §2: an empty /dashboard path goes to the student home (the role guard sends others on). */
export default function DashboardIndex() {
  redirect("/dashboard/student/home");
}
