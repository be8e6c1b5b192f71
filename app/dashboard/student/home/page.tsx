import { HomePage } from "@/components/home/home-page";

export default function StudentHomePage() {
  return <HomePage role="student" />;
}
