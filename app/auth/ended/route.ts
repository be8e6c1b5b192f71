export { GET } from "@/platform/auth/ended";
