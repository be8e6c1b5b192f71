export { GET, POST } from "@/platform/auth/route";
