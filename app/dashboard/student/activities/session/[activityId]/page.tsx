import { StudentSessionPage } from "@/components/play/session-page";

export default async function StudentSession({ params }: { params: Promise<{ activityId: string }> }) {
  return <StudentSessionPage activityId={(await params).activityId} />;
}
