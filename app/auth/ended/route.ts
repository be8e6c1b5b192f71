export { GET } from "@/lib/auth/ended";
