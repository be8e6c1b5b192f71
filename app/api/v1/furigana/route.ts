export { POST } from "@/features/activities/server/furigana-route";
export const runtime = "nodejs";
