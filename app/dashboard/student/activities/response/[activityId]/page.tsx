import { StudentResponsePage } from "@/components/play/response-page";

export default async function StudentResponse({ params }: { params: Promise<{ activityId: string }> }) {
  return <StudentResponsePage activityId={(await params).activityId} />;
}
