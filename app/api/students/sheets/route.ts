export { POST } from "@/lib/students/sheets-route";
export const runtime = "nodejs";
