export { POST } from "@/lib/furigana/route";
export const runtime = "nodejs";
