export { POST } from "@/features/people/server/sheets-route";
export const runtime = "nodejs";
